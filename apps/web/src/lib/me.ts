import { ENDPOINTS, type MeResponse } from '@atrium/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call, isApiError } from './api-client';
import { queryKeys } from './query-keys';

/**
 * The browser flags (docs/PRODUCT.md#browser-flags): `auth`, `isAdmin`, `user` ({ name,
 * isAdmin }) and `userId`. Kept only as a cache of /api/me for code that reads
 * them; nothing trusts them: the server decides every permission.
 */
export const BROWSER_FLAGS = ['auth', 'isAdmin', 'user', 'userId'] as const;

const storage = (): Storage | undefined => {
  try {
    return window.localStorage;
  } catch {
    return undefined; // storage disabled: the flags are only a cache
  }
};

export function writeBrowserFlags(me: MeResponse): void {
  const store = storage();
  if (!store) return;
  store.setItem('auth', 'true');
  store.setItem('isAdmin', String(me.isAdmin));
  store.setItem('user', JSON.stringify({ name: me.name ?? me.nickname ?? me.ownerKey, isAdmin: me.isAdmin }));
  store.setItem('userId', me.ownerKey);
}

export function clearBrowserFlags(): void {
  const store = storage();
  for (const flag of BROWSER_FLAGS) store?.removeItem(flag);
}

/** The signed-in user, or null when there is no session (401). Refreshes the browser flags. */
export const getMe = async (): Promise<MeResponse | null> => {
  try {
    const me = await call(ENDPOINTS.auth.me);
    writeBrowserFlags(me);
    return me;
  } catch (error) {
    if (isApiError(error) && error.status === 401) {
      clearBrowserFlags();
      return null;
    }
    throw error;
  }
};

export const meQueryOptions = () => queryOptions({ queryKey: queryKeys.me(), queryFn: getMe, staleTime: 60_000 });

export const useMe = () => useQuery(meQueryOptions());

/** Tells the server the user's first sign-in was greeted; answers the user with `firstLogin: false`. */
export const completeFirstLogin = (): Promise<MeResponse> => call(ENDPOINTS.auth.firstLogin);

/**
 * Ends the session on the server, then leaves for where the server says
 * (the identity provider's logout, or the site origin).
 */
export async function logout(): Promise<void> {
  let redirectTo = '/';
  try {
    redirectTo = (await call(ENDPOINTS.auth.logout)).redirectTo;
  } finally {
    clearBrowserFlags();
    window.location.assign(redirectTo);
  }
}

/**
 * Asks the server whether the session still holds (after the notification stream failed: EventSource cannot read
 * the status); a 401 is reported like any other (lib/session-end.ts), anything else is left to the stream's retry.
 */
export const checkSession = async (): Promise<void> => {
  await getMe().catch(() => undefined);
};

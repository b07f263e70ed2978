import { LogoutResponse, MeResponse } from '@atrium/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, isApiError } from './api-client';

/** The signed-in user, or null when there is no session (401). */
export const getMe = async (): Promise<MeResponse | null> => {
  try {
    return await api.get(MeResponse, '/api/me');
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
};

export const meQueryOptions = () => queryOptions({ queryKey: ['me'], queryFn: getMe, staleTime: 60_000 });

export const useMe = () => useQuery(meQueryOptions());

/**
 * Ends the session on the server, then leaves for where the server says
 * (the identity provider's logout, or the site origin).
 */
export async function logout(): Promise<void> {
  let redirectTo = '/';
  try {
    redirectTo = (await api.post(LogoutResponse, '/api/auth/logout')).redirectTo;
  } finally {
    window.location.assign(redirectTo);
  }
}

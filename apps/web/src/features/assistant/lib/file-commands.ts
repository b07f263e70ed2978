import { SIGN_IN_FOR_FILES_REPLY, type FileCommand } from '@atrium/assistant';
import { QueryClientContext, type QueryClient } from '@tanstack/react-query';
import { useContext } from 'react';
import { queryKeys } from '../../../lib/query-keys';
import type { FileAnswer } from '../api/file-commands';

/**
 * Whether the user is signed in, as far as this page already knows: the `queryKeys.me()` query of lib/me.ts (read from the
 * cache, never fetched here, so public pages stay free of zod and of a request per message). Not known yet (a
 * public page): a browser without the `auth` flag (docs/PRODUCT.md#browser-flags) is a visitor, asked to sign in
 * without a request; with it, `undefined`: the server decides (a 401 asks to sign in).
 */
export function knownSignedIn(client: QueryClient | undefined): boolean | undefined {
  const me: unknown = client?.getQueryData(queryKeys.me());
  if (me === undefined) return authFlag() ? undefined : false;
  return me !== null;
}

/** The `auth` browser flag (only a cache of /api/me; storage may be off). */
const authFlag = (): boolean => {
  try {
    return window.localStorage.getItem('auth') === 'true';
  } catch {
    return false;
  }
};

/**
 * Runs a file command, loading the code that talks to the API (and its schemas) on first use. Someone known to be
 * signed out is asked to sign in without a request.
 */
export async function runFileCommandLazily(command: FileCommand, signedIn: boolean | undefined): Promise<FileAnswer> {
  if (signedIn === false) {
    return {
      text: SIGN_IN_FOR_FILES_REPLY,
      spoken: SIGN_IN_FOR_FILES_REPLY,
      links: [{ label: 'Sign in', href: '/login', external: false }],
    };
  }
  const { runFileCommand } = await import('../api/file-commands');
  return runFileCommand(command);
}

/** The page's query client, if there is one (a layout rendered alone in a test has none): only read, never required. */
export const useOptionalQueryClient = (): QueryClient | undefined => useContext(QueryClientContext);

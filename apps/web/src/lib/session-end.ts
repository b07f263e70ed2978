// The generic "your session ended" path (docs/PRODUCT.md#session-end-reasons): any 401 UNAUTHENTICATED from the API
// is reported here with the server's reason; the signed-in layout listens and takes the person to /login with it.
// zod-free and import-free below http.ts, so the public pages can load it.
import { isSessionEndReason, type SessionEndReason } from '@atrium/contracts/texts';

type Listener = (reason: SessionEndReason) => void;
const listeners = new Set<Listener>();
let last: SessionEndReason | undefined;

/** Called by the HTTP layer for every 401 `UNAUTHENTICATED` answer of an `/api/` route (reason as the server sent it). */
export function reportSessionEnded(reason: unknown): void {
  last = isSessionEndReason(reason) ? reason : 'expired';
  for (const listener of [...listeners]) listener(last);
}

/** Listens for ended sessions; answers the function that stops listening. */
export function onSessionEnded(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The reason of the latest 401, for the sign-in page's address (`missing` when none was seen). */
export const lastSessionEndReason = (): SessionEndReason => last ?? 'missing';

/** The sign-in page's address for a reason: `/login?reason=expired`. */
export const loginPathFor = (reason: SessionEndReason): string => `/login?reason=${reason}`;

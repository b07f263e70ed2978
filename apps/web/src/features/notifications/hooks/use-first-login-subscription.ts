import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { showToast } from '../../../lib/toast';
import { completeFirstLogin, meQueryOptions, useMe } from '../../../lib/me';
import { subscribeToNotifications } from '../lib/subscribe';
import { useTimedMessage } from './use-timed-message';

/** Local flag (docs/PRODUCT.md#browser-flags): 'false' once the first-login subscription has run in this browser. */
export const FIRST_LOGIN_KEY = 'firstLogin';
/** The same flag for one user (`userId` is the owner key), so another user of the browser still gets theirs. */
export const firstLoginKey = (ownerKey: string) => `${FIRST_LOGIN_KEY}:${ownerKey}`;

export const greetingFor = (name: string) => `Welcome to Atrium, ${name}! You will get notifications here.`;

/**
 * Called by the profile page. On the user's first login — the server's `firstLogin`, which stays true
 * until it is recorded, in any browser — and unless this browser already ran it for this user
 * (`firstLogin:<userId>` is 'false'): subscribes to notifications (asking for permission), sets
 * firstLogin to false, returns a greeting for the 5 s banner and records on the server that the
 * greeting was shown. Subscription failures show as an error toast with their text
 * (docs/PRODUCT.md#notification-messages).
 */
export function useFirstLoginSubscription(): { greeting: string | null; dismiss: () => void } {
  const me = useMe();
  const user = me.data;
  const queryClient = useQueryClient();
  const { message, show, dismiss } = useTimedMessage();
  useEffect(() => {
    if (!user?.firstLogin) return;
    const record = () =>
      completeFirstLogin().then(
        (answer) => queryClient.setQueryData(meQueryOptions().queryKey, answer),
        () => undefined, // recorded on the next visit (this browser's flag keeps the greeting from repeating)
      );
    const key = firstLoginKey(user.ownerKey);
    if (window.localStorage.getItem(key) === 'false') {
      void record();
      return;
    }
    window.localStorage.setItem(key, 'false');
    window.localStorage.setItem(FIRST_LOGIN_KEY, 'false');
    show(greetingFor(user.name ?? user.nickname ?? user.ownerKey));
    subscribeToNotifications(user.ownerKey).catch((error: unknown) => {
      showToast('error', error instanceof Error ? error.message : String(error));
    });
    void record();
  }, [user, show, queryClient]);
  return { greeting: message, dismiss };
}

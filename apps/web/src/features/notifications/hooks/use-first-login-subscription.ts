import { useEffect } from 'react';
import { toast } from 'react-toastify/unstyled';
import { useMe } from '../../../lib/me';
import { subscribeToNotifications } from '../lib/subscribe';
import { useTimedMessage } from './use-timed-message';

/** Local flag (docs/PRODUCT.md#browser-flags): 'false' once the first-login subscription has run. */
export const FIRST_LOGIN_KEY = 'firstLogin';

export const greetingFor = (name: string) => `Welcome to Atrium, ${name}! You will get notifications here.`;

/**
 * Called by the profile page. On first login (firstLogin is not 'false'):
 * subscribes to notifications (asking for permission), sets firstLogin to
 * false and returns a greeting for the 5 s banner. Subscription failures
 * show as an error toast with their text (docs/PRODUCT.md#notification-messages).
 */
export function useFirstLoginSubscription(): { greeting: string | null; dismiss: () => void } {
  const me = useMe();
  const user = me.data;
  const { message, show, dismiss } = useTimedMessage();
  useEffect(() => {
    if (!user) return;
    if (window.localStorage.getItem(FIRST_LOGIN_KEY) === 'false') return;
    window.localStorage.setItem(FIRST_LOGIN_KEY, 'false');
    show(greetingFor(user.name ?? user.nickname ?? user.ownerKey));
    subscribeToNotifications(user.ownerKey).catch((error: unknown) => {
      toast.error(error instanceof Error ? error.message : String(error));
    });
  }, [user, show]);
  return { greeting: message, dismiss };
}

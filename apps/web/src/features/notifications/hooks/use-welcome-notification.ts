import { useEffect } from 'react';
import { useMe } from '../../../lib/me';
import { requestWelcomeNotification } from '../api/notifications-api';
import { ingestNotification } from '../lib/notifications-store';

/** A seen-flag for the welcome notification, per user (docs/PRODUCT.md#browser-flags). */
export const welcomeSeenKey = (ownerKey: string) => `welcomeNotificationSeen:${ownerKey}`;

/**
 * Called by the dashboard home: asks the server for the user's welcome
 * notification once. The server creates it only once per user; the answer
 * is shown at once in case the live stream was not connected yet.
 */
export function useWelcomeNotification(): void {
  const me = useMe();
  const ownerKey = me.data?.ownerKey;
  useEffect(() => {
    if (!ownerKey) return;
    const key = welcomeSeenKey(ownerKey);
    if (window.localStorage.getItem(key) === 'true') return;
    window.localStorage.setItem(key, 'true');
    requestWelcomeNotification().then(
      (answer) => {
        if (answer.created) ingestNotification(answer.notification);
      },
      () => window.localStorage.removeItem(key),
    );
  }, [ownerKey]);
}

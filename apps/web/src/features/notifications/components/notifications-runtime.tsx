import { NOTIFICATION_TEXTS, workspaceMessageSource } from '@atrium/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { showToast } from '../../../lib/toast';
import { inboxKey } from '../api/notifications-api';
import { useMe } from '../../../lib/me';
import { queryKeys } from '../../../lib/query-keys';
import { useTimedMessage } from '../hooks/use-timed-message';
import { connectNotificationStream } from '../lib/notification-stream';
import { ingestNotification, onNotificationArrival } from '../lib/notifications-store';
import { registerServiceWorker } from '../lib/subscribe';
import { NotificationBanner } from './notification-banner';

/**
 * Mounted once in the dashboard layout: keeps the live stream open for the
 * signed-in user, shows the latest-message banner (5 s) for every arrival
 * (once: no toast beside it) and refreshes the server's list, and keeps the push service worker registered once the
 * user has allowed notifications.
 */
export function NotificationsRuntime() {
  const me = useMe();
  const userId = me.data?.id;
  const banner = useTimedMessage();
  const showBanner = banner.show;
  const client = useQueryClient();

  useEffect(
    () =>
      onNotificationArrival((notification) => {
        // Added to (or invited to) a workspace: the spaces list changed, so "Open workspace" and the sidebar find it.
        if (notification.type === 'membership') void client.invalidateQueries({ queryKey: queryKeys.spaces() });
        // A workspace's message says who sent it where; never dressed as an announcement (docs/PRODUCT.md#notifications).
        const source = notification.type === 'workspace' ? workspaceMessageSource(notification) : null;
        const text = source ? `${source}: ${notification.message}` : notification.message;
        // Shown once: in the banner, never also as a toast (docs/PRODUCT.md#live-updates).
        showBanner(text);
        // The server's list is the truth: it has the new one, unread, with the count.
        void client.invalidateQueries({ queryKey: inboxKey() });
      }),
    [showBanner, client],
  );

  useEffect(() => {
    if (!userId) return;
    return connectNotificationStream({
      onNotification: ingestNotification,
      onParseError: () => showToast('error', NOTIFICATION_TEXTS.parseFailed),
    });
  }, [userId]);

  useEffect(() => {
    if (userId && 'Notification' in window && window.Notification.permission === 'granted') {
      void registerServiceWorker();
    }
  }, [userId]);

  return banner.message ? <NotificationBanner message={banner.message} onDismiss={banner.dismiss} /> : null;
}

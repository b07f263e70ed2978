import { NOTIFICATION_TEXTS, workspaceMessageSource } from '@atrium/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { showToast } from '../../../lib/toast';
import { useMe } from '../../../lib/me';
import { queryKeys } from '../../../lib/query-keys';
import { useTimedMessage } from '../hooks/use-timed-message';
import { connectNotificationStream } from '../lib/notification-stream';
import { ingestNotification, onNotificationArrival } from '../lib/notifications-store';
import { registerServiceWorker } from '../lib/subscribe';
import { NotificationBanner } from './notification-banner';

/** Notification toasts close after 3000 ms (docs/PRODUCT.md#toasts). */
export const NOTIFICATION_TOAST_MS = 3000;

/**
 * Mounted once in the dashboard layout: keeps the live stream open for the
 * signed-in user, shows an info toast and the latest-message banner (5 s)
 * for every arrival, and keeps the push service worker registered once the
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
        showToast('info', text, { autoClose: NOTIFICATION_TOAST_MS });
        showBanner(text);
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

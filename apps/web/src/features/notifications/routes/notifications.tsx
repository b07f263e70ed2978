import { workspaceMessageSource, type Notification } from '@atrium/contracts';
import { BellOff, BellRing, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { showToast } from '../../../lib/toast';
import { useMe } from '../../../lib/me';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { MembershipActions } from '../components/membership-notice';
import { useNotifications } from '../hooks/use-notifications';
import { notificationsStore } from '../lib/notifications-store';
import { subscribeToNotifications } from '../lib/subscribe';

/**
 * Only an admin's message is an announcement; a workspace's members' message says who sent it where
 * (docs/PRODUCT.md#notifications).
 */
const TYPE_LABEL = {
  welcome: 'Welcome',
  admin: 'Announcement',
  other: 'Notice',
  workspace: 'Workspace message',
  membership: 'Membership',
} as const;

/** What a notification says, with who sent a workspace message where ("From Eve in Team: …"). */
const displayText = (notification: Notification) =>
  notification.type === 'workspace'
    ? `${workspaceMessageSource(notification)}: ${notification.message}`
    : notification.message;

const formatTime = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

function permissionState(): NotificationPermission | 'unsupported' {
  return typeof window !== 'undefined' && 'Notification' in window ? window.Notification.permission : 'unsupported';
}

/** /dashboard/notifications: newest first, unread until clicked, Clear All. */
export default function NotificationsPage() {
  useDocumentTitle('Notifications');
  const me = useMe();
  const notifications = useNotifications();
  const unread = notifications.filter((n) => !n.read).length;
  const [permission, setPermission] = useState(permissionState);
  const [subscribing, setSubscribing] = useState(false);

  const subscribe = async () => {
    setSubscribing(true);
    try {
      await subscribeToNotifications(me.data?.ownerKey ?? 'anonymous');
      showToast('success', 'Notifications are on');
    } catch (error) {
      showToast('error', error instanceof Error ? error.message : String(error));
    } finally {
      setPermission(permissionState());
      setSubscribing(false);
    }
  };

  return (
    <section className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Notifications</h1>
          <p className="mt-1 text-sm text-slate-600" aria-live="polite">
            {notifications.length === 0
              ? 'Nothing here yet.'
              : `${notifications.length} notification${notifications.length === 1 ? '' : 's'}, ${unread} unread`}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {permission !== 'granted' && (
            <button
              type="button"
              onClick={() => void subscribe()}
              disabled={subscribing}
              className="inline-flex items-center gap-2 rounded-md border border-brand-600 px-3 py-2 text-sm font-medium text-brand-700 hover:bg-brand-50 disabled:opacity-60"
            >
              <BellRing className="size-4" aria-hidden="true" />
              {subscribing ? 'Enabling…' : 'Enable notifications'}
            </button>
          )}
          <button
            type="button"
            onClick={() => notificationsStore.clearAll()}
            disabled={notifications.length === 0}
            className={buttonClass()}
          >
            <Trash2 className="size-4" aria-hidden="true" />
            Clear All
          </button>
        </div>
      </div>

      {notifications.length === 0 ? (
        <div className="mt-10 flex flex-col items-center rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
          <BellOff className="size-8 text-slate-400" aria-hidden="true" />
          <p className="mt-3 font-medium text-slate-700">No notifications yet.</p>
          <p className="mt-1 text-sm text-slate-500">Announcements from your admins will appear here as they arrive.</p>
        </div>
      ) : (
        <ul aria-label="Notifications" className="mt-6 space-y-2">
          {notifications.map((notification) => (
            <li key={notification.id} data-type={notification.type}>
              <button
                type="button"
                onClick={() => notificationsStore.markRead(notification.id)}
                data-read={notification.read ? 'true' : 'false'}
                aria-label={`${notification.read ? '' : 'Unread: '}${displayText(notification)}`}
                className={`flex w-full items-start gap-3 rounded-lg border px-4 py-3 text-left transition-colors ${
                  notification.read
                    ? 'border-slate-200 bg-white text-slate-600'
                    : 'border-brand-100 bg-brand-50 text-slate-900 hover:bg-brand-100'
                }`}
              >
                <span
                  aria-hidden="true"
                  className={`mt-1.5 size-2.5 shrink-0 rounded-full ${notification.read ? 'bg-transparent' : 'bg-brand-600'}`}
                />
                <span className="min-w-0 flex-1">
                  {notification.type === 'workspace' && (
                    <span className="block text-sm text-slate-600">{workspaceMessageSource(notification)}</span>
                  )}
                  <span className={`block break-words ${notification.read ? '' : 'font-semibold'}`}>
                    {notification.message}
                  </span>
                  <span className="mt-1 flex flex-wrap gap-x-3 text-xs text-slate-500">
                    <span>{TYPE_LABEL[notification.type]}</span>
                    <time dateTime={notification.timestamp}>{formatTime(notification.timestamp)}</time>
                    {!notification.read && <span className="font-medium text-brand-700">Unread</span>}
                  </span>
                </span>
              </button>
              {notification.type === 'membership' && (
                <div className="px-4 pb-1 sm:pl-[2.375rem]">
                  <MembershipActions notification={notification} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

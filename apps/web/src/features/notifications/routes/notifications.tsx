import { workspaceMessageSource, type Notification } from '@atrium/contracts';
import { folderHref } from '@atrium/contracts/pages';
import { BellOff, BellRing, CheckCheck, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { LoadMore } from '../../../components/ui/load-more';
import { showToast } from '../../../lib/toast';
import { useMe } from '../../../lib/me';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { VIEWER_OPENED_STATE, viewerHref } from '../../../lib/viewer-link';
import { MembershipActions } from '../components/membership-notice';
import { useInbox, useInboxActions } from '../api/notifications-api';
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

const formatTime = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

function permissionState(): NotificationPermission | 'unsupported' {
  return typeof window !== 'undefined' && 'Notification' in window ? window.Notification.permission : 'unsupported';
}

/** Where a notice leads (docs/PRODUCT.md#notifications): a file opens in the viewer over this page. */
function openTarget(notification: Notification, here: { pathname: string; search: string }) {
  const subject = notification.subject;
  if (!subject || notification.type === 'membership') return null;
  if (subject.kind === 'file') return { href: viewerHref(subject.id, here.pathname, here.search), label: 'Open file' };
  if (subject.kind === 'folder') return { href: folderHref(subject.workspaceId, subject.id), label: 'Open folder' };
  return { href: folderHref(subject.id), label: 'Open workspace' };
}

/**
 * /dashboard/notifications: the server's list (docs/PRODUCT.md#notification-list), newest first, read state the same
 * on every device; a click marks one read, "Mark all as read" all, "Clear All" hides them for this person.
 */
export default function NotificationsPage() {
  useDocumentTitle('Notifications');
  const me = useMe();
  const location = useLocation();
  const inbox = useInbox();
  const { markRead, markAllRead, clear } = useInboxActions();
  const notifications = inbox.data?.pages.flatMap((page) => page.items) ?? [];
  const unread = inbox.data?.pages[0]?.unread ?? 0;
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
            {inbox.isPending
              ? 'Loading…'
              : notifications.length === 0
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
            onClick={() => markAllRead.mutate()}
            disabled={unread === 0 || markAllRead.isPending}
            className={buttonClass()}
          >
            <CheckCheck className="size-4" aria-hidden="true" />
            Mark all as read
          </button>
          <button
            type="button"
            onClick={() => clear.mutate()}
            disabled={notifications.length === 0 || clear.isPending}
            className={buttonClass('secondary')}
          >
            <Trash2 className="size-4" aria-hidden="true" />
            Clear All
          </button>
        </div>
      </div>

      {inbox.isError && (
        <p role="alert" className="mt-6 text-sm text-red-700">
          Could not load your notifications. Reload the page to try again.
        </p>
      )}
      {!inbox.isPending && !inbox.isError && notifications.length === 0 ? (
        <div className="mt-10 flex flex-col items-center rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
          <BellOff className="size-8 text-slate-400" aria-hidden="true" />
          <p className="mt-3 font-medium text-slate-700">No notifications yet.</p>
          <p className="mt-1 text-sm text-slate-600">
            Announcements, shares and workspace news will appear here, on every device you sign in on.
          </p>
        </div>
      ) : (
        <ul aria-label="Notifications" className="mt-6 space-y-2">
          {notifications.map((notification) => {
            const target = openTarget(notification, location);
            return (
              <li
                key={notification.id}
                data-type={notification.type}
                data-read={notification.read ? 'true' : 'false'}
                className={`rounded-lg border px-4 py-3 ${
                  notification.read
                    ? 'border-slate-200 bg-white text-slate-700'
                    : 'border-brand-100 bg-brand-50 text-slate-900'
                }`}
              >
                <div className="flex items-start gap-3">
                  <span
                    aria-hidden="true"
                    className={`mt-1.5 size-2.5 shrink-0 rounded-full ${notification.read ? 'bg-transparent' : 'bg-brand-600'}`}
                  />
                  <div className="min-w-0 flex-1">
                    {/* The name is the visible text, after "Unread: " for screen readers (WCAG 2.5.3). */}
                    <button
                      type="button"
                      onClick={() => !notification.read && markRead.mutate(notification.id)}
                      data-read={notification.read ? 'true' : 'false'}
                      className="block w-full rounded text-left focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                    >
                      {!notification.read && (
                        <>
                          <span className="sr-only">Unread:</span>{' '}
                        </>
                      )}
                      {notification.type === 'workspace' && (
                        <span className="block text-sm text-slate-700">{workspaceMessageSource(notification)} </span>
                      )}
                      <span className={`block break-words ${notification.read ? '' : 'font-semibold'}`}>
                        {notification.message}
                      </span>
                    </button>
                    <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-700">
                      <span>{TYPE_LABEL[notification.type]}</span>
                      <time dateTime={notification.timestamp}>{formatTime(notification.timestamp)}</time>
                      {!notification.read && <span className="font-semibold text-brand-800">Unread</span>}
                      {target && (
                        <Link
                          to={target.href}
                          // The viewer closes back to this list (docs/PRODUCT.md#file-viewer).
                          state={VIEWER_OPENED_STATE}
                          onClick={() => !notification.read && markRead.mutate(notification.id)}
                          className="font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900"
                        >
                          {target.label}
                        </Link>
                      )}
                    </span>
                    {notification.type === 'membership' && <MembershipActions notification={notification} />}
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <LoadMore query={inbox} centred />
    </section>
  );
}

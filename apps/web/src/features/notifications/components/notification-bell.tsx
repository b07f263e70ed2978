import { Bell } from 'lucide-react';
import { NavLink } from 'react-router';
import { useUnreadCount } from '../hooks/use-notifications';

/** Sidebar link to the notifications page: the bell rings while anything is unread, with the unread badge. */
export function NotificationBell({ label = 'Notifications' }: { label?: string }) {
  const unread = useUnreadCount();
  return (
    <NavLink
      to="/dashboard/notifications"
      aria-label={unread > 0 ? `${label} (${unread} unread)` : label}
      className={({ isActive }) =>
        `flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium ${
          isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100'
        }`
      }
    >
      <Bell
        aria-hidden="true"
        data-testid="notification-bell"
        data-ringing={unread > 0 ? 'true' : 'false'}
        className={`size-5 ${unread > 0 ? 'origin-top animate-bell-ring text-brand-600' : ''}`}
      />
      <span className="flex-1">{label}</span>
      {unread > 0 && (
        <span
          data-testid="unread-badge"
          className="min-w-5 rounded-full bg-brand-600 px-1.5 py-0.5 text-center text-xs font-semibold text-white"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </NavLink>
  );
}

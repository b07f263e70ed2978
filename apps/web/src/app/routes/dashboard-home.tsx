import { DashboardHome } from '../../features/dashboard/routes/dashboard-home';
import { useUnreadCount, useWelcomeNotification } from '../../features/notifications';

/** Composes the dashboard home with the notifications feature (features do not import each other). */
export default function DashboardHomeRoute() {
  useWelcomeNotification();
  const unread = useUnreadCount();
  return <DashboardHome unreadCount={unread} />;
}

import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function NotificationsPage() {
  return <PlaceholderPage title="Notifications" />;
}

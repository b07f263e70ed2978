import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function DashboardHomePage() {
  return <PlaceholderPage title="Dashboard" />;
}

import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function FileStatsPage() {
  return <PlaceholderPage title="File Stats" />;
}

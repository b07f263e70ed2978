import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function FileListPage() {
  return <PlaceholderPage title="Files list" />;
}

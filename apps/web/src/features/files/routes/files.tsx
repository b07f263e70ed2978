import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function FilesPage() {
  return <PlaceholderPage title="Files" />;
}

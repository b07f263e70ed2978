import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function FilePreviewPage() {
  return <PlaceholderPage title="Preview" />;
}

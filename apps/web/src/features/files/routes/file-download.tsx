import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function FileDownloadPage() {
  return <PlaceholderPage title="Download a file" />;
}

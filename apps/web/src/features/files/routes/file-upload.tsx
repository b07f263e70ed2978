import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function FileUploadPage() {
  return <PlaceholderPage title="Upload" />;
}

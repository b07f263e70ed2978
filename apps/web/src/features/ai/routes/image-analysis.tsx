import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function ImageAnalysisPage() {
  return <PlaceholderPage title="Image Analysis" />;
}

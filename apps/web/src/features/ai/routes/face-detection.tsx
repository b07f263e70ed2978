import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function FaceDetectionPage() {
  return <PlaceholderPage title="Face Detection" />;
}

import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function SpeechToTextPage() {
  return <PlaceholderPage title="Speech to Text" />;
}

import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function TextToSpeechPage() {
  return <PlaceholderPage title="Text to Speech" />;
}

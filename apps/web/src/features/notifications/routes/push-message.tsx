import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function PushMessagePage() {
  return <PlaceholderPage title="Send Push Message" />;
}

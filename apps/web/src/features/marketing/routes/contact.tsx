import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function ContactPage() {
  return <PlaceholderPage title="Contact" />;
}

import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function TestimonialsPage() {
  return <PlaceholderPage title="Reviews" />;
}

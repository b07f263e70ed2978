import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function PricingPage() {
  return <PlaceholderPage title="Pricing" />;
}

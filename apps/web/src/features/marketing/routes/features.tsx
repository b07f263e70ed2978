import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function FeaturesPage() {
  return <PlaceholderPage title="Features" />;
}

import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function FileDeletePage() {
  return <PlaceholderPage title="Delete a file" />;
}

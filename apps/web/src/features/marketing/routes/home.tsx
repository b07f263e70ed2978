import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function HomePage() {
  return <PlaceholderPage title="Atrium" description="The AI workspace for teams." />;
}

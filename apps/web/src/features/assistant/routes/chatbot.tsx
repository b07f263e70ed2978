import { PlaceholderPage } from '../../../components/ui/placeholder-page';

export default function ChatbotPage() {
  return <PlaceholderPage title="AI Assistant" />;
}

import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ChatPanel } from '../components/chat-panel';

export default function ChatbotPage() {
  useDocumentTitle('AI Assistant');
  const navigate = useNavigate();
  return (
    <section className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">AI Assistant</h1>
      <p className="mt-2 text-slate-600">
        Ask the assistant to open a page, or use the voice button at the bottom right to speak a command.
      </p>
      <div className="mt-6">
        <ChatPanel variant="page" onNavigate={(path) => void navigate(path)} />
      </div>
    </section>
  );
}

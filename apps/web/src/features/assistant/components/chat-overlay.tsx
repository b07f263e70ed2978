import { useNavigate } from 'react-router';
import { ChatPanel } from './chat-panel';

/** The chat on public pages: a panel above the floating icons. Loaded on first open. */
export default function ChatOverlay({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  return (
    <div className="fixed bottom-24 right-4 z-50 sm:right-6">
      <ChatPanel onNavigate={(path) => void navigate(path)} onClose={onClose} />
    </div>
  );
}

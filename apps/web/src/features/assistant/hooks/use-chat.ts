import { respond, type AssistantReply } from '@atrium/assistant';
import { useCallback, useEffect, useRef, useState } from 'react';
import { showToast } from '../../../lib/toast';

/** Canned reply delays (docs/PRODUCT.md#chat-assistant). */
export const QUICK_REPLY_DELAY_MS = 600;
export const TYPED_REPLY_DELAY_MS = 800;

export interface ChatMessage {
  id: string;
  text: string;
  sender: 'bot' | 'user';
}

const WELCOME: ChatMessage = {
  id: 'welcome',
  sender: 'bot',
  text: 'Hi! I am the Atrium assistant. Pick a quick command or type one, for example "open files".',
};

let nextId = 0;
const newId = () => `m${Date.now().toString(36)}-${(nextId++).toString(36)}`;

/**
 * The chat conversation: user messages, a pending flag while the canned reply
 * is "typed" (600 ms for quick commands, 800 ms for typed text), then the
 * bot's reply. Navigation replies call `onNavigate` after they are shown.
 */
export function useChat(onNavigate: (path: string) => void, answer: (text: string) => AssistantReply = respond) {
  const [messages, setMessages] = useState<ChatMessage[]>([WELCOME]);
  const [pending, setPending] = useState(false);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const active = timers.current;
    return () => {
      for (const timer of active) clearTimeout(timer);
      active.clear();
    };
  }, []);

  const send = useCallback(
    (text: string, source: 'quick' | 'typed') => {
      const trimmed = text.trim();
      if (!trimmed) return;
      setMessages((list) => [...list, { id: newId(), text: trimmed, sender: 'user' }]);
      setPending(true);
      const timer = setTimeout(
        () => {
          timers.current.delete(timer);
          try {
            const reply = answer(trimmed);
            setMessages((list) => [...list, { id: newId(), text: reply.text, sender: 'bot' }]);
            showToast('success', 'Response received!');
            if (reply.navigateTo) onNavigate(reply.navigateTo);
          } catch {
            showToast('error', 'Failed to get response');
          } finally {
            setPending(false);
          }
        },
        source === 'quick' ? QUICK_REPLY_DELAY_MS : TYPED_REPLY_DELAY_MS,
      );
      timers.current.add(timer);
    },
    [answer, onNavigate],
  );

  return { messages, pending, send };
}

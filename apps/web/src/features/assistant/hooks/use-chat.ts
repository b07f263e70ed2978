import { respond, type AssistantReply, type FileCommand } from '@atrium/assistant';
import type { AskResponse } from '@atrium/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { showToast } from '../../../lib/toast';
import type { ChatLink, FileAnswer } from '../api/file-commands';

/** Canned reply delays (docs/PRODUCT.md#chat-assistant). */
export const QUICK_REPLY_DELAY_MS = 600;
export const TYPED_REPLY_DELAY_MS = 800;

export interface ChatMessage {
  id: string;
  text: string;
  sender: 'bot' | 'user';
  /** Files (and the search page) an answer to a file command links to. */
  links?: ChatLink[];
  /** An answer from the files (Ask), shown with its citations. */
  ask?: AskResponse;
}

/** Runs a file command (search, open, what is in) for the chat; see api/file-commands.ts. */
export type FileCommandRunner = (command: FileCommand) => Promise<FileAnswer>;

/**
 * Asks the files a question no rule answers (docs/PRODUCT.md#ask-your-files); null when it may not (a visitor).
 * An answer without citations, or a failure, leaves the rule-based reply in place.
 */
export type AskRunner = (
  question: string,
  options: { signal: AbortSignal; onDelta: (text: string) => void },
) => Promise<AskResponse | null>;

/** A question being answered from the files: the answer so far (it streams in). */
export interface ChatAsking {
  partial: string;
}

/** The reply after Cancel stopped an answer from the files. */
export const ASK_STOPPED_REPLY = 'Stopped. Ask again whenever you like.';

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
 * A file command stays pending until `runFile` answers (with links to the files).
 */
export function useChat(
  onNavigate: (path: string) => void,
  answer: (text: string) => AssistantReply = respond,
  runFile?: FileCommandRunner,
  runAsk?: AskRunner,
) {
  const [messages, setMessages] = useState<ChatMessage[]>([WELCOME]);
  const [pending, setPending] = useState(false);
  const [asking, setAsking] = useState<ChatAsking | null>(null);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  const mounted = useRef(true);
  const askController = useRef<AbortController | null>(null);

  useEffect(() => {
    const active = timers.current;
    mounted.current = true;
    return () => {
      mounted.current = false;
      askController.current?.abort();
      for (const timer of active) clearTimeout(timer);
      active.clear();
    };
  }, []);

  const reply = useCallback((text: string, links?: ChatLink[], ask?: AskResponse) => {
    setMessages((list) => [
      ...list,
      { id: newId(), text, sender: 'bot', ...(links?.length ? { links } : {}), ...(ask ? { ask } : {}) },
    ]);
    showToast('success', 'Response received!');
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
          let result: AssistantReply;
          try {
            result = answer(trimmed);
          } catch {
            showToast('error', 'Failed to get response');
            setPending(false);
            return;
          }
          if (result.fileCommand && runFile) {
            runFile(result.fileCommand)
              .then((found) => {
                if (!mounted.current) return;
                reply(found.text, found.links);
                if (found.navigateTo) onNavigate(found.navigateTo);
              })
              .catch(() => {
                if (mounted.current) showToast('error', 'Failed to get response');
              })
              .finally(() => {
                if (mounted.current) setPending(false);
              });
            return;
          }
          if (result.intent === 'unknown' && runAsk) {
            const controller = new AbortController();
            askController.current = controller;
            setAsking({ partial: '' });
            runAsk(trimmed, {
              signal: controller.signal,
              onDelta: (piece) => {
                if (mounted.current && askController.current === controller)
                  setAsking((before) => ({ partial: before?.partial ? `${before.partial} ${piece}` : piece }));
              },
            })
              .catch(() => null)
              .then((found) => {
                if (!mounted.current || askController.current !== controller) return;
                askController.current = null;
                setAsking(null);
                if (found && found.citations.length > 0) reply(found.answer, undefined, found);
                else reply(result.text);
                setPending(false);
              })
              .catch(() => undefined);
            return;
          }
          reply(result.text);
          setPending(false);
          if (result.navigateTo) onNavigate(result.navigateTo);
        },
        source === 'quick' ? QUICK_REPLY_DELAY_MS : TYPED_REPLY_DELAY_MS,
      );
      timers.current.add(timer);
    },
    [answer, onNavigate, reply, runFile, runAsk],
  );

  /** Cancel: stops the answer from the files being streamed (the server stops its model too). */
  const cancel = useCallback(() => {
    const controller = askController.current;
    if (!controller) return;
    askController.current = null;
    controller.abort();
    setAsking(null);
    setPending(false);
    setMessages((list) => [...list, { id: newId(), text: ASK_STOPPED_REPLY, sender: 'bot' }]);
  }, []);

  return { messages, pending, asking, send, cancel };
}

import type { AskResponse } from '@atrium/contracts';
import { PAGES } from '@atrium/contracts/pages';
import { respondToSpeech } from '@atrium/assistant';
import { Loader2, MessageCircle, Mic, MicOff } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Link, useNavigate } from 'react-router';
import { knownSignedIn, runFileCommandLazily, useOptionalQueryClient } from '../lib/file-commands';
import type { VoiceSession, VoiceState, VoiceTone } from '../voice/voice-session';

const ChatOverlay = lazy(() => import('./chat-overlay'));
/** A spoken question's answer from the files, with its citations; loaded with the first such answer. */
const AskAnswer = lazy(() =>
  import('../../../components/ask/ask-answer').then((module) => ({ default: module.AskAnswer })),
);

const TONE_CLASS: Record<VoiceTone, string> = {
  info: 'border-slate-200 text-slate-700',
  heard: 'border-slate-200 text-slate-900',
  reply: 'border-brand-100 text-brand-900',
  error: 'border-red-200 text-red-800',
};

const roundButton =
  'inline-flex size-14 items-center justify-center rounded-full shadow-lg transition-transform hover:scale-105 focus-visible:outline-offset-4';

/**
 * The floating chat and voice icons, bottom-right. On the dashboard the chat
 * icon links to /dashboard/chatbot; on public pages it opens the chat overlay.
 * The chat and voice code loads on first use, so public pages stay light.
 */
const subscribeNothing = () => () => undefined;

export function FloatingAssistant({ chat }: { chat: 'overlay' | 'link' }) {
  // Not in prerendered markup: the icons appear once they work (they are fixed, so nothing shifts).
  const inBrowser = useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
  const navigate = useNavigate();
  const client = useOptionalQueryClient();
  const [chatOpen, setChatOpen] = useState(false);
  const [voiceState, setVoiceState] = useState<VoiceState>('idle');
  const [voiceMessage, setVoiceMessage] = useState<{ text: string; tone: VoiceTone; ask?: AskResponse } | null>(null);
  const session = useRef<VoiceSession | null>(null);
  const loading = useRef(false);

  useEffect(() => () => session.current?.dispose(), []);

  const toggleVoice = useCallback(async () => {
    if (!session.current) {
      if (loading.current) return;
      loading.current = true;
      const { createVoiceSession } = await import('../voice/voice-session');
      session.current = createVoiceSession(
        {
          onState: setVoiceState,
          onMessage: (text, tone, ask) => setVoiceMessage(ask ? { text, tone, ask } : { text, tone }),
          onNavigate: (path) => void navigate(path),
          onFileCommand: (command) => runFileCommandLazily(command, knownSignedIn(client)),
          // As in the chat: a question no rule answers goes to the files of someone (maybe) signed in.
          onAsk: async (question, signal) => {
            if (knownSignedIn(client) === false) return null;
            const { askFiles } = await import('../../../lib/ask');
            return askFiles({ question }, { signal });
          },
        },
        (text) => respondToSpeech(text, { signedIn: knownSignedIn(client) === true }),
      );
      loading.current = false;
    }
    session.current.toggle();
  }, [client, navigate]);

  const active = voiceState !== 'idle';
  if (!inBrowser) return null;
  return (
    <>
      {chat === 'overlay' && chatOpen && (
        <Suspense fallback={null}>
          <ChatOverlay onClose={() => setChatOpen(false)} />
        </Suspense>
      )}
      {/* A landmark of its own: every control of the page is inside one (axe `region`). */}
      <aside
        aria-label="Assistant"
        className="pointer-events-none fixed bottom-4 right-4 z-40 flex flex-col items-end gap-3 sm:right-6"
      >
        {voiceMessage && (
          <div
            className={`pointer-events-auto max-w-[min(20rem,calc(100vw-2rem))] rounded-xl border bg-white px-3 py-2 text-sm shadow-lg ${TONE_CLASS[voiceMessage.tone]}`}
            data-testid="voice-message"
            data-tone={voiceMessage.tone}
          >
            {voiceMessage.ask ? (
              <Suspense fallback={voiceMessage.text}>
                <AskAnswer answer={voiceMessage.ask.answer} citations={voiceMessage.ask.citations} compact />
              </Suspense>
            ) : (
              voiceMessage.text
            )}
          </div>
        )}
        <p role="status" aria-live="polite" className="sr-only">
          {voiceMessage?.text ?? ''}
        </p>
        <div className="pointer-events-auto flex gap-3">
          <button
            type="button"
            onClick={() => void toggleVoice()}
            aria-pressed={active}
            aria-label={active ? 'Stop listening' : 'Start voice assistant'}
            data-state={voiceState}
            className={`${roundButton} ${active ? 'animate-pulse bg-red-600 text-white' : 'bg-white text-brand-700 ring-1 ring-slate-200'}`}
          >
            {voiceState === 'transcribing' ? (
              <Loader2 className="size-6 animate-spin" aria-hidden="true" />
            ) : active ? (
              <MicOff className="size-6" aria-hidden="true" />
            ) : (
              <Mic className="size-6" aria-hidden="true" />
            )}
          </button>
          {chat === 'link' ? (
            <Link
              to={PAGES.chatbot.path}
              aria-label="Open the chat assistant"
              className={`${roundButton} bg-brand-600 text-white`}
            >
              <MessageCircle className="size-6" aria-hidden="true" />
            </Link>
          ) : (
            <button
              type="button"
              onClick={() => setChatOpen((open) => !open)}
              aria-expanded={chatOpen}
              aria-label={chatOpen ? 'Close the chat assistant' : 'Open the chat assistant'}
              className={`${roundButton} bg-brand-600 text-white`}
            >
              <MessageCircle className="size-6" aria-hidden="true" />
            </button>
          )}
        </div>
      </aside>
    </>
  );
}

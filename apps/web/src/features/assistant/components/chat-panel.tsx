import { PAGES } from '@atrium/contracts/pages';
import { QUICK_COMMANDS, respond, type FileCommand } from '@atrium/assistant';
import { Bot, ChevronDown, ChevronUp, ExternalLink, FileText, Loader2, Search, SendHorizontal, X } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { AskAnswer } from '../../../components/ask/ask-answer';
import { askFiles } from '../../../lib/ask';
import type { ChatLink } from '../api/file-commands';
import { useChat } from '../hooks/use-chat';
import { knownSignedIn, runFileCommandLazily, useOptionalQueryClient } from '../lib/file-commands';

export interface ChatPanelProps {
  onNavigate: (path: string) => void;
  /** Shows a close button (the overlay). */
  onClose?: () => void;
  /** Taller body for the full page. */
  variant?: 'page' | 'overlay';
}

/** The chat: six quick commands, typed text, a typing indicator, and a minimisable panel. */
export function ChatPanel({ onNavigate, onClose, variant = 'overlay' }: ChatPanelProps) {
  const client = useOptionalQueryClient();
  const answer = useCallback((text: string) => respond(text, { signedIn: knownSignedIn(client) === true }), [client]);
  const runFile = useCallback((command: FileCommand) => runFileCommandLazily(command, knownSignedIn(client)), [client]);
  // A question no rule answers goes to the files of someone signed in (or maybe signed in: the server decides).
  const runAsk = useCallback(
    (question: string, options: { signal: AbortSignal; onDelta: (text: string) => void }) =>
      knownSignedIn(client) === false ? Promise.resolve(null) : askFiles({ question }, options),
    [client],
  );
  const { messages, pending, asking, send, cancel } = useChat(onNavigate, answer, runFile, runAsk);
  const [draft, setDraft] = useState('');
  const [minimised, setMinimised] = useState(false);
  const bodyId = useId();
  const inputId = useId();
  const logRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages, pending, asking]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.trim()) return;
    send(draft, 'typed');
    setDraft('');
  };

  return (
    <section
      aria-label="Chat with the Atrium assistant"
      data-chat-panel={variant}
      className={`flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-xl ${
        variant === 'page' ? 'w-full' : 'w-[min(24rem,calc(100vw-2rem))]'
      }`}
    >
      {/* Above the toast layer: a toast never covers Minimise or Close (see index.css for the overlay). */}
      <header className="relative z-[10000] flex items-center gap-3 bg-brand-600 px-4 py-3 text-white">
        <span className="flex size-8 items-center justify-center rounded-full bg-white/15" aria-hidden="true">
          <Bot className="size-5" />
        </span>
        <div className="flex-1">
          <h2 className="text-sm font-semibold">Atrium assistant</h2>
          <p className="text-xs text-brand-100">Commands, and questions about your files</p>
        </div>
        <button
          type="button"
          onClick={() => setMinimised((value) => !value)}
          aria-expanded={!minimised}
          aria-controls={bodyId}
          aria-label={minimised ? 'Expand chat' : 'Minimise chat'}
          className="rounded-md p-1.5 hover:bg-white/15 focus-visible:outline-white"
        >
          {minimised ? (
            <ChevronUp className="size-5" aria-hidden="true" />
          ) : (
            <ChevronDown className="size-5" aria-hidden="true" />
          )}
        </button>
        {onClose && (
          <button
            type="button"
            onClick={onClose}
            aria-label="Close chat"
            className="rounded-md p-1.5 hover:bg-white/15 focus-visible:outline-white"
          >
            <X className="size-5" aria-hidden="true" />
          </button>
        )}
      </header>
      <div id={bodyId} hidden={minimised} className="flex flex-col">
        <ol
          ref={logRef}
          aria-label="Conversation"
          aria-live="polite"
          className={`flex flex-col gap-2 overflow-y-auto bg-slate-50 p-4 ${variant === 'page' ? 'h-[50vh] min-h-72' : 'h-72'}`}
        >
          {messages.map((message) => (
            <li
              key={message.id}
              data-sender={message.sender}
              className={`max-w-[85%] rounded-2xl px-3 py-2 text-sm ${
                message.sender === 'user'
                  ? 'self-end rounded-br-sm bg-brand-600 text-white'
                  : 'self-start rounded-bl-sm border border-slate-200 bg-white text-slate-800'
              }`}
            >
              <span className="sr-only">{message.sender === 'user' ? 'You: ' : 'Assistant: '}</span>
              {message.ask ? (
                <AskAnswer answer={message.ask.answer} citations={message.ask.citations} compact />
              ) : (
                message.text
              )}
              {message.links && <AnswerLinks links={message.links} />}
            </li>
          ))}
          {asking && (
            <li
              data-sender="bot"
              data-testid="chat-asking"
              aria-busy="true"
              className="max-w-[85%] self-start rounded-2xl rounded-bl-sm border border-slate-200 bg-white px-3 py-2 text-sm text-slate-800"
            >
              <span className="sr-only">Assistant: </span>
              <span role="status" className="flex items-center gap-2 text-xs text-slate-600">
                <Loader2 className="size-3.5 animate-spin" aria-hidden="true" />
                {asking.partial ? 'Answering from your files…' : 'Looking in your files…'}
              </span>
              {asking.partial && (
                <p className="mt-1 whitespace-pre-line" data-testid="chat-asking-text">
                  {asking.partial}
                </p>
              )}
              <button
                type="button"
                onClick={cancel}
                className="mt-2 rounded-md border border-slate-300 px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                Cancel
              </button>
            </li>
          )}
          {pending && !asking && (
            <li className="self-start" data-testid="typing-indicator">
              <span
                role="status"
                className="flex items-center gap-1 rounded-2xl rounded-bl-sm border border-slate-200 bg-white px-3 py-3"
              >
                <span className="sr-only">Assistant is typing…</span>
                <span className="size-2 animate-bounce rounded-full bg-slate-400" aria-hidden="true" />
                <span
                  className="size-2 animate-bounce rounded-full bg-slate-400 [animation-delay:150ms]"
                  aria-hidden="true"
                />
                <span
                  className="size-2 animate-bounce rounded-full bg-slate-400 [animation-delay:300ms]"
                  aria-hidden="true"
                />
              </span>
            </li>
          )}
        </ol>
        <div className="border-t border-slate-200 p-3">
          <p className="mb-2 text-xs font-medium text-slate-600" id={`${bodyId}-quick`}>
            Quick commands
          </p>
          <ul aria-labelledby={`${bodyId}-quick`} className="flex flex-wrap gap-2">
            {QUICK_COMMANDS.map((quick) => (
              <li key={quick.command}>
                <button
                  type="button"
                  disabled={pending}
                  onClick={() => send(quick.command, 'quick')}
                  className="rounded-full border border-brand-100 bg-brand-50 px-3 py-1 text-xs font-medium text-brand-700 hover:bg-brand-100 disabled:opacity-60"
                >
                  {quick.label}
                </button>
              </li>
            ))}
          </ul>
          <form onSubmit={submit} className="mt-3 flex gap-2">
            <label htmlFor={inputId} className="sr-only">
              Message
            </label>
            <input
              id={inputId}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              placeholder="Type a command…"
              autoComplete="off"
              maxLength={500}
              className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-600 focus:outline-none focus-visible:outline-2 focus-visible:outline-brand-600"
            />
            <button
              type="submit"
              disabled={!draft.trim()}
              aria-label="Send"
              className="inline-flex items-center justify-center rounded-lg bg-brand-600 px-3 text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-300"
            >
              <SendHorizontal className="size-4" aria-hidden="true" />
            </button>
          </form>
        </div>
      </div>
    </section>
  );
}

const linkClass =
  'flex min-w-0 items-start gap-2 rounded-lg px-2 py-1.5 text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600';

/** The files (and the search page) an answer links to; a link opens the file's folder, or a new tab. */
function AnswerLinks({ links }: { links: readonly ChatLink[] }) {
  return (
    <ul aria-label="Files in this answer" className="mt-2 flex flex-col gap-1 border-t border-slate-100 pt-2">
      {links.map((link) => {
        const Icon = link.href.startsWith(PAGES.search.path) ? Search : link.external ? ExternalLink : FileText;
        const body = (
          <>
            <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span className="min-w-0">
              <span className="block break-words font-medium">{link.label}</span>
              {link.detail && <span className="block break-words text-xs text-slate-500">{link.detail}</span>}
            </span>
          </>
        );
        return (
          <li key={`${link.href}|${link.label}`}>
            {link.external ? (
              <a href={link.href} target="_blank" rel="noopener noreferrer" className={linkClass}>
                {body}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            ) : (
              <Link to={link.href} className={linkClass}>
                {body}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}

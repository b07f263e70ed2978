// "Ask your files" for every screen that asks (docs/PRODUCT.md#ask-your-files): the search page, the chat and the
// viewer's "Summarise". zod-free (types only from contracts), so the chat on public pages stays light.
import type { AskRequest, AskResponse } from '@atrium/contracts';
import { ApiError } from './api-error';
import { sendOk } from './http';

/** One server-sent event: its name (`message` when none) and its data lines joined. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Reads server-sent events from text that arrives in pieces: `push` a piece, get the events it completed; what is
 * left of an unfinished event waits for the next piece. Lines end in LF, CRLF or CR; `:` lines are comments.
 */
export function createSseParser() {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  const line = (text: string, out: SseEvent[]) => {
    if (text === '') {
      if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  };
  return {
    push(piece: string): SseEvent[] {
      buffer += piece;
      const out: SseEvent[] = [];
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer);
        // A CR at the very end may be the first half of CRLF: wait for the next piece.
        if (!match || (match[0] === '\r' && match.index === buffer.length - 1)) break;
        line(buffer.slice(0, match.index), out);
        buffer = buffer.slice(match.index + match[0].length);
      }
      return out;
    },
  };
}

export interface AskOptions {
  signal?: AbortSignal;
  /** Each piece of the answer as it arrives (a generated answer's sentences). */
  onDelta?: (text: string) => void;
}

/** The message of an answer that stopped part way (the server's `error` event). */
const STOPPED = 'The answer stopped. Please ask again.';

/**
 * Asks `POST /api/ask` as server-sent events: `delta` pieces go to `onDelta`, `done` resolves with the whole answer;
 * an `error` event, or a stream that ends without `done`, rejects with an `ApiError`. A failed request rejects with
 * the server's JSON error; aborting `signal` rejects with the abort.
 */
export async function askFiles(request: AskRequest, options: AskOptions = {}): Promise<AskResponse> {
  const response = await sendOk('/api/ask', {
    method: 'POST',
    headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
    body: JSON.stringify(request),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream'))
    return (await response.json()) as AskResponse;
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (!reader) throw new ApiError(0, 'ASK_STOPPED', STOPPED);
  const parser = createSseParser();
  for (;;) {
    const { value, done } = await reader.read();
    for (const event of done ? parser.push('\n\n') : parser.push(value)) {
      const payload = JSON.parse(event.data) as unknown;
      if (event.event === 'delta') options.onDelta?.((payload as { text: string }).text);
      else if (event.event === 'done') {
        await reader.cancel().catch(() => undefined);
        return payload as AskResponse;
      } else if (event.event === 'error')
        throw new ApiError(0, 'ASK_STOPPED', (payload as { message?: string }).message ?? STOPPED);
    }
    if (done) throw new ApiError(0, 'ASK_STOPPED', STOPPED);
  }
}

/** A minimal Server-Sent Events reader over fetch, for integration tests. */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** Every event received so far. */
  events: SseEvent[];
  /** Comment lines received so far (heartbeats). */
  comments: string[];
  /** Resolves once `count` events have arrived in total (rejects after timeoutMs). */
  waitForEvents(count: number, timeoutMs?: number): Promise<SseEvent[]>;
  waitForComment(match: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openSse(url: string, init: RequestInit = {}): Promise<SseStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    ...init,
    headers: { accept: 'text/event-stream', ...init.headers },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  let endedResolve: () => void = () => undefined;
  const ended = new Promise<void>((r) => (endedResolve = r));

  if (response.ok && response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let current: { id?: string; event?: string; data: string[] } = { data: [] };
    const firstChunk = new Promise<void>((resolveFirst) => {
      void (async () => {
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value;
            let newline: number;
            while ((newline = buffer.indexOf('\n')) >= 0) {
              const line = buffer.slice(0, newline).replace(/\r$/, '');
              buffer = buffer.slice(newline + 1);
              if (line === '') {
                if (current.data.length > 0) {
                  events.push({ id: current.id, event: current.event ?? 'message', data: current.data.join('\n') });
                }
                current = { data: [] };
              } else if (line.startsWith(':')) {
                comments.push(line.slice(1).trim());
              } else {
                const colon = line.indexOf(':');
                const field = colon < 0 ? line : line.slice(0, colon);
                const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
                if (field === 'data') current.data.push(text);
                else if (field === 'id') current.id = text;
                else if (field === 'event') current.event = text;
              }
            }
            resolveFirst();
            notify();
          }
        } catch {
          // aborted
        } finally {
          resolveFirst();
          endedResolve();
          notify();
        }
      })();
    });
    // The server writes its first bytes once the stream is registered.
    await firstChunk;
  } else {
    endedResolve();
  }

  const waitFor = (check: () => boolean, what: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (check()) return resolve();
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(events)}`));
      }, timeoutMs);
      const waiter = () => {
        if (!check()) return;
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve();
      };
      waiters.add(waiter);
    });

  return {
    status: response.status,
    headers: response.headers,
    events,
    comments,
    ended,
    async waitForEvents(count, timeoutMs = 5000) {
      await waitFor(() => events.length >= count, `${count} events`, timeoutMs);
      return events.slice(0, count);
    },
    waitForComment: (match, timeoutMs = 5000) =>
      waitFor(() => comments.some((c) => match.test(c)), `comment ${match}`, timeoutMs),
    close: () => controller.abort(),
  };
}

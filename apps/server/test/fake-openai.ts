/**
 * A fake OpenAI-compatible server on loopback for tests, speaking the documented wire format: `POST
 * /v1/chat/completions` with `stream: true` answers server-sent events (`data: {chat.completion.chunk}` lines, then
 * `data: [DONE]`), `POST /v1/embeddings` answers `{ object: 'list', data: [{ object: 'embedding', index, embedding }]
 * }`. Each request is recorded; `behave()` makes the next answers fail, stall or hang.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeOpenAiRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/**
 * `ok`: answer normally; `status`: answer that HTTP status with an OpenAI error body; `stall`: send the first chunk,
 * then nothing (the connection stays open); `hang`: never answer; `garbage`: a stream line that is not JSON;
 * `cut`: the stream ends without `[DONE]`.
 */
export type FakeBehaviour =
  { kind: 'ok' } | { kind: 'status'; status: number } | { kind: 'stall' | 'hang' | 'garbage' | 'cut' };

export interface FakeOpenAi {
  /** The base URL to configure: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  requests: FakeOpenAiRequest[];
  /** The words a chat answer streams, one chunk each. */
  answerWords: string[];
  dimensions: number;
  behave(behaviour: FakeBehaviour): void;
  /** Streams that were closed by the client before they ended. */
  abandoned: number;
  close(): Promise<void>;
}

/** A deterministic unit vector for `text`. */
export function fakeVector(text: string, dimensions: number): number[] {
  const digest = createHash('sha256').update(text).digest();
  const vector = Array.from({ length: dimensions }, (_, i) => ((digest[i % digest.length] ?? 0) - 127.5) / 127.5);
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

export async function startFakeOpenAi(options: { dimensions?: number } = {}): Promise<FakeOpenAi> {
  const open = new Set<http.ServerResponse>();
  const fake: FakeOpenAi = {
    baseUrl: '',
    requests: [],
    answerWords: ['The', ' budget', ' review', ' is', ' on', ' Friday', ' [1].'],
    dimensions: options.dimensions ?? 8,
    behave: (next) => (behaviour = next),
    abandoned: 0,
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  let behaviour: FakeBehaviour = { kind: 'ok' };

  const chunk = (content: string | null, finish: string | null = null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'fake',
      choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }],
    })}\n\n`;

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'We could not parse the JSON body of your request.' } }));
        return;
      }
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      fake.requests.push({ path, headers: req.headers, body });
      if (behaviour.kind === 'hang') {
        open.add(res);
        return;
      }
      if (behaviour.kind === 'status') {
        res.writeHead(behaviour.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'The fake provider is overloaded.', type: 'server_error' } }));
        return;
      }
      if (req.method === 'POST' && path === '/v1/embeddings') {
        const input = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            model: body.model,
            data: input.map((text, index) => ({
              object: 'embedding',
              index,
              embedding: fakeVector(text, fake.dimensions),
            })),
            usage: { prompt_tokens: input.length, total_tokens: input.length },
          }),
        );
        return;
      }
      if (req.method === 'POST' && path === '/v1/chat/completions' && body.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        open.add(res);
        res.on('close', () => {
          if (!res.writableEnded) fake.abandoned++;
          open.delete(res);
        });
        const words = [...fake.answerWords];
        const current = behaviour;
        res.write(chunk(''));
        const next = () => {
          if (res.destroyed) return;
          const word = words.shift();
          if (current.kind === 'garbage') return void res.end('data: {not json\n\n');
          if (word === undefined) {
            if (current.kind === 'cut') return void res.end();
            res.write(chunk(null, 'stop'));
            return void res.end('data: [DONE]\n\n');
          }
          res.write(chunk(word));
          if (current.kind === 'stall') return;
          setTimeout(next, 5);
        };
        next();
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Unknown path ${path}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}

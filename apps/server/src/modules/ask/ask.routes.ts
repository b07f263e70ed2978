import { ENDPOINTS } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../plugins/route';
import type { AskService } from './ask.service';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
} as const;
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * `POST /api/ask` (docs/PRODUCT.md#ask-your-files): signed-in users; which passages may be used is decided in the
 * retrieval query itself (`readableScope`). JSON by default; with `Accept: text/event-stream`, server-sent events:
 * `delta` (`{ text }`, each kept sentence of a generated answer as it comes), then `done` (the whole answer). A client
 * that goes away cancels the generation.
 */
export function registerAskRoutes(app: FastifyInstance, deps: { ask: AskService }) {
  route(app, ENDPOINTS.ask.ask, {
    config: { access: 'user' },
    tags: ['ask'],
    summary:
      'Answer a question from the passages of the files the caller can read, with citations (server-sent events with Accept: text/event-stream)',
    errors: [400, 404, 429],
    handler: async (request, reply) => {
      const actor = await request.requireUser();
      const cancel = new AbortController();
      const gone = () => {
        if (!reply.raw.writableFinished) cancel.abort();
      };
      reply.raw.on('close', gone);
      try {
        if (!(request.headers.accept ?? '').includes('text/event-stream'))
          return await deps.ask.ask(actor, request.body, cancel.signal);
        let open = false;
        const start = () => {
          if (open) return;
          open = true;
          reply.hijack();
          const set = Object.entries(reply.getHeaders()).filter(
            (entry): entry is [string, string | number | string[]] => entry[1] !== undefined,
          );
          reply.raw.writeHead(200, { ...Object.fromEntries(set), ...SSE_HEADERS });
        };
        try {
          const answer = await deps.ask.ask(actor, request.body, cancel.signal, (text) => {
            start();
            reply.raw.write(frame('delta', { text }));
          });
          start();
          reply.raw.end(frame('done', answer));
        } catch (error) {
          if (!open) throw error;
          request.log.warn({ err: error }, 'an answer stopped while streaming');
          reply.raw.end(frame('error', { message: 'The answer stopped. Please ask again.' }));
        }
        return reply as never;
      } finally {
        reply.raw.off('close', gone);
      }
    },
  });
}

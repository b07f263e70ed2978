/**
 * The ask module's face: "Ask your files" (docs/PRODUCT.md#ask-your-files), `POST /api/ask`.
 *
 * Passages (migration 0040, table `passages`; FTS5 `passages_fts` on SQLite, `text_tsv` on PostgreSQL): what
 * analysis read in a file cut into ~100–250-word passages with their origin (`passages.ts`), written again on every
 * `file.analysed` (new content, `npm run reindex`); a file's passages go with it (cascade), and who may read them is
 * its search document under `readableScope` at query time, so moves, shares, trash and workspace removal apply at
 * once (the search triggers). The scheduled `ask.passages.backfill` fills passages for files analysed before them.
 *
 * `retrieval.ts`: full-text ranking over passages, WordNet synonyms (`expansion.ts`), vectors when `embedder()`
 * gives one (stored per passage, scanned in process), fused by reciprocal rank; exact identifiers first.
 * `answer.ts`: extractive answers with citations, or generated ones through `generator()` (ports.ts: the providers
 * are wired in by the app; null: none configured).
 */
import type { FastifyInstance } from 'fastify';
import type { EventSubscriber } from '../../events';
import { registerAskRoutes } from './ask.routes';
import { createAskService, type AskServiceDeps } from './ask.service';

export type { AskService } from './ask.service';
export type { AnswerGenerator, PassageEmbedder } from './ports';

export interface AskModuleDeps extends AskServiceDeps {
  events: EventSubscriber;
}

export function createAskModule(app: FastifyInstance, { events, ...deps }: AskModuleDeps) {
  const ask = createAskService(deps);
  registerAskRoutes(app, { ask });
  events.on('file.analysed', 'ask passages', async ({ fileId }) => {
    await ask.index(fileId);
  });
  return { ask };
}

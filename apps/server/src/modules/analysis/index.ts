/**
 * The analysis module's face: background analysis of stored files (text, transcripts, captions, tags, faces), the
 * insights and per-workspace setting routes. It reacts to `file.stored` and `file.reanalyse` (enqueues the file's
 * analysis) and announces `file.analysed` with what it read (docs/PRODUCT.md#file-insights).
 *
 * `analysis.service.ts` (`onStored`) enqueues one durable job per file on the job queue (`jobs/queue.ts`, table
 * `jobs`), one kind per analyser (`analysers.ts`: OCR, PDF text, documents, images with captions, tags and faces, audio
 * transcripts; bounded by `MAX_ANALYSED_BYTES` and friends, `KIND_CONCURRENCY` at once), or records `unsupported`; the
 * queue's workers read the file, run the analyser and save the insights (`analysis.repository.ts`), then announce
 * `file.analysed` with the searchable text. Where People is on for the file's space, face descriptors are handed to the
 * people module (`saveFaces`) in the same transaction; a change to the names in files is announced as `people.changed`.
 *
 * `analysis.routes.ts`: a file's insights (the file's read access) and the per-workspace analysis setting (members
 * read, owners change; `settings.changed` audited). `ANALYSIS_VERSION` is stored with each file's insights;
 * `reindexAll` (`npm run reindex`, e.g. after an engine upgrade) queues every stored file again and only writes rows,
 * so the running servers' queues pick the jobs up. Insights and settings tables: `db/schema/analysis.ts`.
 */
import type { FastifyInstance } from 'fastify';
import type { EventEmitter, EventSubscriber } from '../../events';
import { registerAnalysisRoutes } from './analysis.routes';
import { createAnalysisService, type AnalysisServiceDeps } from './analysis.service';

export type { AnalysisService } from './analysis.service';
export { ANALYSIS_VERSION } from './analysis.service';

export interface AnalysisModuleDeps extends Omit<
  AnalysisServiceDeps,
  'events' | 'enabled' | 'timeoutMs' | 'sttAdaptation'
> {
  config: { enabled: boolean; timeoutMs: number; sttAdaptation?: boolean };
  events: EventEmitter & EventSubscriber;
}

export function createAnalysisModule(app: FastifyInstance, { config, ...deps }: AnalysisModuleDeps) {
  const analysis = createAnalysisService({
    ...deps,
    enabled: config.enabled,
    timeoutMs: config.timeoutMs,
    sttAdaptation: config.sttAdaptation ?? true,
  });
  registerAnalysisRoutes(app, { analysis });
  deps.events.on('file.stored', 'analysis', async ({ file }) => {
    await analysis.onStored(file);
  });
  deps.events.on('file.reanalyse', 'analysis', async ({ fileIds }) => {
    for (const id of fileIds) {
      const file = await deps.files.findUnchecked(id);
      if (file) await analysis.onStored(file);
    }
  });
  return {
    analysis,
    /** The searchable text analysis found in a file, for composing its search content. */
    analysedText: analysis.analysedText,
    /** What analysis read in a file, by part, for the passages of Ask. */
    analysedParts: analysis.analysedParts,
  };
}

/**
 * The analysis module's face: background analysis of stored files (text, transcripts, captions, tags, faces), the
 * insights and per-workspace setting routes. It reacts to `file.stored` and `file.reanalyse` (enqueues the file's
 * analysis) and announces `file.analysed` with what it read (docs/PRODUCT.md#file-insights).
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import type { EventEmitter, EventSubscriber } from '../../events';
import { registerAnalysisRoutes } from './analysis.routes';
import { createAnalysisService, insightsText, type AnalysisServiceDeps } from './analysis.service';

export type { AnalysisService } from './analysis.service';

export interface AnalysisModuleDeps extends Omit<AnalysisServiceDeps, 'events' | 'enabled' | 'timeoutMs'> {
  config: { enabled: boolean; timeoutMs: number };
  events: EventEmitter & EventSubscriber;
}

export function createAnalysisModule(app: FastifyInstance, { config, ...deps }: AnalysisModuleDeps) {
  const analysis = createAnalysisService({ ...deps, enabled: config.enabled, timeoutMs: config.timeoutMs });
  registerAnalysisRoutes(app, { analysis, events: deps.events });
  deps.events.on('file.stored', 'analysis', ({ file }) => analysis.onStored(file));
  deps.events.on('file.reanalyse', 'analysis', async ({ fileIds }) => {
    for (const id of fileIds) {
      const file = await deps.files.findUnchecked(id);
      if (file) await analysis.onStored(file);
    }
  });
  return {
    analysis,
    /** The searchable text analysis found in a file, for composing its search content. */
    analysedText: (fileId: string) => insightsText(deps.db as Db, fileId),
  };
}

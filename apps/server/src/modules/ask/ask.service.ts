import { ASK_PER_MINUTE, ASK_RATE_MESSAGE, type AskRequest, type AskResponse } from '@atrium/contracts';
import type { UserActor } from '../../auth/actor';
import { AppError } from '../../errors';
import { requireWorkspace } from '../../auth/policies/workspace';
import { createAskRepository, type PassageRow } from './ask.repository';
import type { Db, Dialect } from '../../db';
import { extractive, extractiveSummary, generate } from './answer';
import { cutPassages, type PassageSources } from './passages';
import { isModelTrouble, type AnswerGenerator, type PassageEmbedder } from './ports';
import { createRetrieval, TOP_PASSAGES, type RetrievalOptions } from './retrieval';
import { createVectorIndex } from './vector-index';
import { createVectorIndexRepository } from './vector-index.repository';
import type { SpacesRepository } from '../spaces';

export interface AskServiceDeps {
  db: Db;
  dialect: Dialect;
  /** What analysis read in a file, by part; undefined when it has not finished. */
  analysedParts(fileId: string): Promise<PassageSources | undefined>;
  generator: () => AnswerGenerator | null;
  embedder: () => PassageEmbedder | null;
  /** The database-backed limiter (`lib/rate-limiter.ts`), for the per-user limit. */
  limiter: { consume(limit: { key: string; max: number; windowMs: number; message: string }): Promise<void> };
  log: { warn(details: object, message: string): void; info(details: object, message: string): void };
  /** Who is a member of a workspace, in what role (the spaces module's). */
  spaces: Pick<SpacesRepository, 'findWorkspace'>;
}

/** Passages embedded per call to the embedder. */
const EMBED_BATCH = 32;

/**
 * "Ask your files" (docs/PRODUCT.md#ask-your-files): passages kept in step with what analysis read, retrieval over
 * the ones the asker may read, and the answer (extractive, or generated with a model).
 */
export function createAskService(deps: AskServiceDeps) {
  const repo = createAskRepository(deps.db, deps.dialect);
  const index = createVectorIndex(createVectorIndexRepository(deps.db, deps.dialect), deps.log);
  const retrieval = createRetrieval(repo, deps.embedder, index);

  async function embed(ids: number[], texts: string[]): Promise<void> {
    const model = deps.embedder();
    if (!model || ids.length === 0) return;
    for (let i = 0; i < ids.length; i += EMBED_BATCH) {
      const vectors = await model.embed(texts.slice(i, i + EMBED_BATCH));
      const cells = await index.keysFor(model.label, vectors);
      await repo.setVectors(
        model.label,
        vectors
          .map((vector, j) => ({ passageId: ids[i + j] ?? -1, vector, cell: cells[j] ?? null }))
          .filter((v) => v.passageId >= 0),
      );
    }
  }

  const service = {
    /** Cuts a file's analysed text into passages again (on `file.analysed`); answers how many. */
    async index(fileId: string): Promise<number> {
      const sources = await deps.analysedParts(fileId);
      const passages = sources ? cutPassages(sources) : [];
      const ids = await repo.replace(fileId, passages);
      try {
        await embed(
          ids,
          passages.map((p) => p.text),
        );
      } catch (error) {
        // Vectors are an addition: the passages are searchable by their words without them.
        deps.log.warn({ err: error, file: fileId }, 'could not embed a file’s passages');
      }
      return ids.length;
    },

    /**
     * Files analysed before passages existed get theirs (a scheduled job, like the analysis backfill), and passages
     * without a vector of the configured embedder get one; then the vector index is trained when due and the
     * vectors are loaded into memory (`vector-index.ts`). Answers how many files it filled.
     */
    async backfill(signal?: AbortSignal): Promise<number> {
      let filled = 0;
      let after = '';
      for (;;) {
        const ids = await repo.analysedWithoutPassages(after, 200);
        if (ids.length === 0 || signal?.aborted) break;
        for (const id of ids) if ((await service.index(id)) > 0) filled += 1;
        after = ids.at(-1) ?? after;
      }
      const model = deps.embedder();
      while (model && !signal?.aborted) {
        const missing = await repo.missingVectors(model.label, EMBED_BATCH * 4);
        if (missing.length === 0) break;
        await embed(
          missing.map((m) => m.passage_id),
          missing.map((m) => m.text),
        );
      }
      if (model && !signal?.aborted) {
        await index.maintain(model.label, signal);
        // The first questions then find the vectors in memory (on this instance; others load them on their first).
        await index.warm(model.label);
      }
      return filled;
    },

    /** Loads the copy in memory of the configured embedder's vectors now (tests; a question otherwise starts it). */
    async warmVectors(): Promise<void> {
      const model = deps.embedder();
      if (model) await index.warm(model.label);
    },

    /** The ranked passages for a question (also what the evaluation measures). */
    retrieve: (actor: UserActor, question: string, within: AskRequest, options?: RetrievalOptions) =>
      retrieval.retrieve(actor, question, { workspaceId: within.workspaceId, fileId: within.fileId }, options),

    /**
     * Answers `request` for `actor` from the passages they may read: generated when a model is configured (each kept
     * sentence passed to `onSentence` as it arrives), extractive otherwise or when the model cites nothing.
     */
    async ask(
      actor: UserActor,
      request: AskRequest,
      signal: AbortSignal,
      onSentence: (sentence: string) => void | Promise<void> = () => undefined,
    ): Promise<AskResponse> {
      await deps.limiter.consume({
        key: `ask:user:${actor.id}`,
        max: ASK_PER_MINUTE,
        windowMs: 60_000,
        message: ASK_RATE_MESSAGE,
      });
      const within = { workspaceId: request.workspaceId, fileId: request.fileId };
      // One workspace's files: its members only, 404 for anyone else (as every workspace route).
      if (request.workspaceId !== undefined)
        await requireWorkspace(actor, request.workspaceId, 'read', async (id) => {
          const row = await deps.spaces.findWorkspace(id, actor.id);
          return row && { memberRole: row.member_role };
        });
      let rows: PassageRow[];
      let base: AskResponse;
      if (request.summarise) {
        if (request.fileId === undefined) throw new AppError('BAD_REQUEST', 'Choose a file to summarise.');
        rows = (await repo.ofFile(actor, request.fileId)).slice(0, TOP_PASSAGES);
        base = extractiveSummary(rows);
      } else {
        const ranked = (await retrieval.retrieve(actor, request.question, within, undefined, signal)).slice(
          0,
          TOP_PASSAGES,
        );
        rows = ranked.map((r) => r.row);
        base = extractive(ranked);
      }
      const generator = deps.generator();
      if (!generator || rows.length === 0) return base;
      const question = request.summarise ? 'Summarise this file in a few sentences.' : request.question;
      const highlights = base.citations.map((c) => c.highlights);
      try {
        const generated = await generate(generator, rows, highlights, question, signal, onSentence);
        return generated ?? base;
      } catch (error) {
        // The team's model is down, slow or unreadable: the passages still answer (docs/PRODUCT.md#ask-your-files).
        if (signal.aborted || !isModelTrouble(error)) throw error;
        deps.log.warn({ err: error }, 'the answer model failed; answering from the passages');
        return base;
      }
    },
  };
  return service;
}

export type AskService = ReturnType<typeof createAskService>;

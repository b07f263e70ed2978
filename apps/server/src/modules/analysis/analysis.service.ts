import type { AnalysisSetting, FileInsights } from '@atrium/contracts';
import type { Actor, UserActor } from '../../auth/actor';
import type { ResourceAction } from '../../auth/policies/roles';
import type { Db, Dialect } from '../../db';
import type { FileInsightsTable } from '../../db/schema';
import type { EventEmitter } from '../../events';
import { createJobQueue, PermanentJobError, type JobKind, type JobQueue, type QueueJob } from '../../jobs/queue';
import { readAll } from '../../lib/read-all';
import type { RequestContext } from '../../lib/http/request-context';
import { iso, type Clock } from '../../lib/time';
import type { AiService } from '../ai';
import type { StoredFile } from '../files';
import { createAnalysisRepository, type InsightsRow } from './analysis.repository';
import {
  adaptationTextOf,
  analyseAudio,
  analyseDocument,
  analyseImage,
  analyseText,
  KIND_CONCURRENCY,
  kindOf,
  MAX_ANALYSED_BYTES,
  MAX_MEDIA_BYTES,
  type AnalyserInput,
  type AnalysisKind,
  type Result,
} from './analysers';

/** Bumped when what an analysis records changes, so `reindex` can tell old results apart. */
export const ANALYSIS_VERSION = 'atrium-analysis-2';

/** What the analysis service needs of the files module. */
export interface AnalysedFiles {
  /** The file if the actor may read it (404 `FILE_NOT_FOUND` otherwise: the file policy). */
  get(actor: Actor, id: string): Promise<StoredFile>;
  findUnchecked(id: string): Promise<StoredFile | undefined>;
  read(file: StoredFile): Promise<NodeJS.ReadableStream>;
}

export interface AnalysisServiceDeps {
  /** The workspace policy, for the per-workspace setting (read: members; change: owners). */
  workspaces: { authorize(actor: UserActor, id: string, action: ResourceAction): Promise<unknown> };
  db: Db;
  /** The one job queue (`jobs/queue.ts`): analysis registers a kind per analyser on it. */
  queue: JobQueue;
  clock: Clock;
  ai: AiService;
  files: AnalysedFiles;
  log: { info(details: object, message: string): void; warn(details: object, message: string): void };
  /** Off: nothing is enqueued and no job runs (`ANALYSIS_ENABLED=false`). */
  enabled: boolean;
  /** Per-job time-out. */
  timeoutMs: number;
  /** Adapt recordings' transcripts to their space's own text (`STT_ADAPTATION`, default on; docs/PRODUCT.md#transcripts). */
  sttAdaptation?: boolean;
  /**
   * Hears `file.analysed` with the searchable text of a file (OCR, transcript, document text, tags, caption) each time
   * an analysis is saved (search makes it searchable), and `people.changed` when turning faces off dropped people.
   */
  events: EventEmitter;
  /**
   * People (docs/PRODUCT.md#people), where it is on for a file's space: descriptors are computed with the faces and
   * handed over in the transaction that saves the insights; turning faces off drops the workspace's people.
   */
  people?: {
    enabledForFile(file: StoredFile): Promise<boolean>;
    saveFaces(trx: Db, file: StoredFile, found: NonNullable<Result['people']>): Promise<void>;
    dropSpace(trx: Db, spaceKey: string): Promise<string[]>;
  };
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
const parse = <T>(value: string | null): T | undefined => (value === null ? undefined : (JSON.parse(value) as T));

/** The words a search should find the file by. */
export const searchableText = (result: Result): string =>
  [result.caption, result.tags?.join(' '), result.text, result.transcript?.text].filter(Boolean).join('\n');

/**
 * Background analysis of stored files (docs/PRODUCT.md#file-insights): `onStored(file)` enqueues a durable job per file
 * by type (or records `unsupported`); the queue's workers read the file, run the analyser of its kind and save
 * `file_insights` in the transaction that finishes the job; `insights(actor, id)` answers with the file's read access.
 */
export function createAnalysisService(deps: AnalysisServiceDeps) {
  const { db, clock, queue } = deps;
  const repo = createAnalysisRepository(db);

  async function readFile(file: StoredFile): Promise<Buffer> {
    const tooLarge = () => new PermanentJobError(`The file is larger than ${MAX_ANALYSED_BYTES / 1024 / 1024} MB.`);
    if (file.size > MAX_ANALYSED_BYTES) throw tooLarge();
    return readAll(await deps.files.read(file), MAX_ANALYSED_BYTES, tooLarge);
  }

  const upsert = (executor: Db, row: InsightsRow) => repo.upsertInsights(executor, row, iso(clock.now()));
  const emptyRow = (fileId: string, contentSha: string): InsightsRow => ({
    file_id: fileId,
    status: 'pending',
    progress: null,
    content_sha: contentSha,
    text: null,
    transcript: null,
    caption: null,
    tags: null,
    objects: null,
    faces: null,
    colors: null,
    engine: null,
    model_version: null,
    analysed_at: null,
    error: null,
  });

  /** A workspace's setting (`on` without a row; personal spaces are always `on`). */
  const settingOf = async (workspaceId: string | null, executor: Db = db): Promise<AnalysisSetting> => {
    if (workspaceId === null) return 'on';
    return (await repo.setting(workspaceId, executor)) ?? 'on';
  };
  const TURNED_OFF = 'Analysis is turned off for this workspace.';

  const analyser: Record<AnalysisKind, (input: AnalyserInput) => Promise<Result>> = {
    image: (input) => analyseImage(deps.ai, input),
    audio: (input) => analyseAudio(deps.ai, input),
    document: analyseDocument,
    text: analyseText,
  };

  async function onGaveUp(trx: Db, job: QueueJob, error: string, outcome: 'failed' | 'unsupported') {
    if ((await repo.contentShaOf(trx, job.fileId)) !== job.contentSha) return;
    await upsert(trx, {
      ...emptyRow(job.fileId, job.contentSha),
      status: outcome,
      error: error.slice(0, 2000),
      model_version: ANALYSIS_VERSION,
      analysed_at: iso(clock.now()),
    });
  }

  /** The space's own words for a recording's transcript (docs/PRODUCT.md#transcripts); undefined when too few. */
  async function spaceAdaptationText(file: StoredFile): Promise<string | undefined> {
    const { files, folders } = await repo.spaceWords(file, file.id);
    const texts = files.flatMap((row) => [row.name, row.text, parse<{ text?: string }>(row.transcript)?.text]);
    return adaptationTextOf([file.fileName, ...texts, ...folders]);
  }

  const kinds: Record<string, JobKind> = Object.fromEntries(
    (Object.keys(analyser) as AnalysisKind[]).map((kind) => [
      kind,
      {
        concurrency: KIND_CONCURRENCY[kind],
        timeoutMs: deps.timeoutMs,
        // A killed instance's jobs are taken over 15 s later (renewed every 5 s while they run).
        leaseMs: 15_000,
        onGaveUp,
        async run({ job, signal, progress }) {
          const file = await deps.files.findUnchecked(job.fileId);
          // Deleted, or its content replaced meanwhile (the newer content has a job of its own): nothing to save.
          if (!file || file.sha256 !== job.contentSha) return undefined;
          // Turned off for its workspace meanwhile: nothing is analysed or kept.
          const setting = await settingOf(file.workspaceId);
          if (setting === 'off') return undefined;
          if (kind === 'audio' && file.size > MAX_MEDIA_BYTES)
            throw new PermanentJobError(`The file is larger than ${MAX_MEDIA_BYTES / 1024 ** 3} GB.`);
          const result = await analyser[kind]({
            read: () => readFile(file),
            open: () => deps.files.read(file),
            contentType: file.contentType,
            ...(kind === 'audio' && deps.sttAdaptation !== false
              ? { adaptationText: await spaceAdaptationText(file) }
              : {}),
            faces: setting === 'on',
            people: setting === 'on' && ((await deps.people?.enabledForFile(file)) ?? false),
            signal,
            progress,
          });
          return async (trx: Db) => {
            // The setting may have changed while the job ran: what is saved follows the current one.
            const now = await settingOf(file.workspaceId, trx);
            if (now === 'off') return undefined;
            await upsert(trx, {
              ...emptyRow(file.id, job.contentSha),
              status: 'done',
              text: result.text ?? null,
              transcript: json(result.transcript),
              caption: result.caption ?? null,
              tags: json(result.tags),
              objects: json(result.objects),
              faces: now === 'on' ? json(result.faces) : null,
              colors: json(result.colors),
              engine: result.engine,
              model_version: ANALYSIS_VERSION,
              analysed_at: iso(clock.now()),
            });
            if (deps.people && (result.people || now !== 'on'))
              await deps.people.saveFaces(trx, file, now === 'on' ? (result.people ?? []) : []);
            return () => deps.events.emit('file.analysed', { fileId: file.id, text: searchableText(result) });
          };
        },
      } satisfies JobKind,
    ]),
  );
  const kindNames = Object.keys(kinds);
  // Off (`ANALYSIS_ENABLED=false`): no job of analysis runs on this instance.
  if (deps.enabled) for (const [name, kind] of Object.entries(kinds)) queue.register(name, kind);

  const present = (row: FileInsightsTable): FileInsights => ({
    status: row.status,
    ...(row.text !== null ? { text: row.text } : {}),
    ...(row.transcript !== null ? { transcript: parse(row.transcript) } : {}),
    ...(row.caption !== null ? { caption: row.caption } : {}),
    ...(row.tags !== null ? { tags: parse(row.tags) } : {}),
    ...(row.objects !== null ? { objects: parse(row.objects) } : {}),
    ...(row.faces !== null ? { faces: parse(row.faces) } : {}),
    ...(row.colors !== null ? { colors: parse(row.colors) } : {}),
    engine: row.engine,
    analysedAt: row.analysed_at,
    ...(row.error !== null ? { error: row.error } : {}),
  });

  const service = {
    /** The words a search should find a file by, from its saved insights ('' without any). */
    async analysedText(fileId: string): Promise<string> {
      const row = await repo.insights(fileId);
      if (!row) return '';
      return searchableText({
        engine: '',
        caption: row.caption ?? undefined,
        tags: parse<string[]>(row.tags),
        text: row.text ?? undefined,
        transcript: parse(row.transcript),
      });
    },

    /** What analysis read in a file, by part (text with PDF pages, transcript segments, caption, tags), for Ask. */
    async analysedParts(fileId: string) {
      const row = await repo.insights(fileId);
      if (!row || row.status !== 'done') return undefined;
      return {
        text: row.text ?? undefined,
        segments: parse<{ segments?: { start: number; end: number; text: string }[] }>(row.transcript)?.segments,
        caption: row.caption ?? undefined,
        tags: parse<string[]>(row.tags),
      };
    },

    /**
     * A file's content was stored (upload, resumable upload, file drop; versions and restores once wired): enqueue
     * its analysis, or record that its type has none. Never throws: storing the file has succeeded either way.
     */
    async onStored(file: StoredFile): Promise<boolean> {
      if (!deps.enabled) return false;
      try {
        const kind = kindOf(file.contentType);
        if (kind && (await settingOf(file.workspaceId)) === 'off') {
          await upsert(db, { ...emptyRow(file.id, file.sha256), status: 'unsupported', error: TURNED_OFF });
          return false;
        }
        if (!kind) {
          await upsert(db, {
            ...emptyRow(file.id, file.sha256),
            status: 'unsupported',
            error: `Files of type ${file.contentType} are not analysed.`,
            model_version: ANALYSIS_VERSION,
            analysed_at: iso(clock.now()),
          });
          return false;
        }
        // New content, even if the file had it before (a version made current again): the queue drops the
        // finished job first.
        return await queue.enqueue(kind, { fileId: file.id, contentSha: file.sha256 });
      } catch (error) {
        deps.log.warn({ err: error, file: file.id }, 'could not enqueue a file’s analysis');
        return false;
      }
    },

    /**
     * Files stored before this version's analysers (`ANALYSIS_VERSION`), or while analysis was off, are analysed
     * as if just stored, without anyone asking (docs/PRODUCT.md#file-insights): one pass over the files, 500 at a
     * time; a file already queued is not queued twice. Answers how many it queued.
     */
    async backfill(signal?: AbortSignal): Promise<number> {
      if (!deps.enabled) return 0;
      let queued = 0;
      let after = '';
      for (;;) {
        const ids = await repo.notAnalysedAfter(after, 500, ANALYSIS_VERSION);
        if (ids.length === 0 || signal?.aborted) return queued;
        for (const id of ids) {
          const file = await deps.files.findUnchecked(id);
          if (file && (await service.onStored(file))) queued += 1;
        }
        after = ids.at(-1) ?? after;
      }
    },

    /** What analysis found in file `id`, with exactly the file's read access (404 where it is not visible). */
    async insights(actor: Actor, id: string): Promise<FileInsights> {
      const file = await deps.files.get(actor, id);
      if ((await settingOf(file.workspaceId)) === 'off')
        return { status: 'unsupported', engine: null, analysedAt: null, error: TURNED_OFF };
      const row = await repo.insights(id);
      if (row && row.content_sha === file.sha256 && row.status !== 'pending') return present(row);
      const job = await queue.latest({ fileId: id, contentSha: file.sha256 }, kindNames);
      if (job?.state === 'running')
        return { status: 'running', progress: job.progress, engine: null, analysedAt: null };
      if (job?.state === 'failed')
        return { status: 'failed', engine: null, analysedAt: null, ...(job.lastError ? { error: job.lastError } : {}) };
      // Queued, or older results while the new content waits.
      return { ...(row ? present(row) : { engine: null, analysedAt: null }), status: 'pending', progress: 0 };
    },

    /** A workspace's analysis setting (its members may read it). */
    async setting(actor: UserActor, workspaceId: string): Promise<{ analysis: AnalysisSetting }> {
      await deps.workspaces.authorize(actor, workspaceId, 'read');
      return { analysis: await settingOf(workspaceId) };
    },

    /**
     * Changes a workspace's analysis (owners): `no-faces` also drops the faces already found in its files, `off` its
     * files' insights and pending jobs (a run in progress loses its job and saves nothing). Files stored while it was
     * off are analysed after `npm run reindex`.
     */
    async setSetting(
      actor: UserActor,
      workspaceId: string,
      analysis: AnalysisSetting,
      context: RequestContext = {},
    ): Promise<{ analysis: AnalysisSetting }> {
      await deps.workspaces.authorize(actor, workspaceId, 'manage');
      const updated_at = iso(clock.now());
      const touched = await db.transaction().execute(async (trx) => {
        await repo.saveSetting(trx, workspaceId, analysis, updated_at);
        if (analysis === 'no-faces') await repo.dropWorkspaceFaces(trx, workspaceId, updated_at);
        if (analysis === 'off') {
          await repo.dropWorkspaceInsights(trx, workspaceId);
          await queue.forget(trx, { workspaceId }, kindNames);
        }
        // No faces, no people: the workspace's descriptors and people go, and People is off (`dropSpace`).
        return analysis !== 'on' && deps.people ? deps.people.dropSpace(trx, workspaceId) : [];
      });
      await deps.events.emit('settings.changed', {
        actor: actor.ownerKey,
        target: `workspace:${workspaceId}`,
        details: { setting: 'analysis', to: analysis },
        ...context,
      });
      if (touched.length > 0) await deps.events.emit('people.changed', { fileIds: touched });
      return { analysis };
    },
  };
  return service;
}

export type AnalysisService = ReturnType<typeof createAnalysisService>;

/**
 * Analyses every stored file again (`npm run reindex`, e.g. after an engine upgrade): each file's jobs are replaced by
 * a new queued one (a run in progress loses its lease and saves nothing), files of other types are recorded as
 * `unsupported`. Only writes rows: the running servers' queues pick the jobs up. Answers how many were queued.
 */
export async function reindexAll({ db, dialect, clock }: { db: Db; dialect: Dialect; clock: Clock }) {
  // Not started: its enqueues only write rows.
  const queue = createJobQueue({ db, dialect, clock, log: { info: () => undefined, warn: () => undefined } });
  const repo = createAnalysisRepository(db);
  const kinds = Object.keys(KIND_CONCURRENCY);
  let queued = 0;
  let unsupported = 0;
  let after = '';
  for (;;) {
    const files = await repo.filesAfter(after, 500);
    if (files.length === 0) break;
    for (const file of files) {
      const kind = kindOf(file.content_type);
      await db.transaction().execute(async (trx) => {
        await queue.forget(trx, { fileId: file.id }, kinds);
        if (kind) {
          await queue.enqueue(kind, { fileId: file.id, contentSha: file.sha256 }, { executor: trx });
          queued += 1;
        } else {
          const at = iso(clock.now());
          await repo.upsertInsights(
            trx,
            {
              file_id: file.id,
              status: 'unsupported',
              content_sha: file.sha256,
              error: `Files of type ${file.content_type} are not analysed.`,
              model_version: ANALYSIS_VERSION,
              analysed_at: at,
            },
            at,
          );
          unsupported += 1;
        }
      });
    }
    after = files.at(-1)?.id ?? after;
  }
  return { queued, unsupported };
}

import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db, Dialect } from '../db';
import type { Database } from '../db/schema';

/** A job as the queue hands it to its kind's handler. */
export interface QueueJob {
  id: string;
  kind: string;
  fileId: string;
  contentSha: string;
  /** Runs so far, this one included. */
  attempts: number;
}

/** What a job is about: one file's content (a job is identified by file, kind and content hash). */
export interface JobKey {
  fileId: string;
  contentSha: string;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed';

type Row = { id: string; kind: string; file_id: string; content_sha: string; attempts: number };
const toJob = (row: Row): QueueJob => ({
  id: row.id,
  kind: row.kind,
  fileId: row.file_id,
  contentSha: row.content_sha,
  attempts: Number(row.attempts),
});
const RETURNED = ['id', 'kind', 'file_id', 'content_sha', 'attempts'] as const;

/** Due (queued and its time has come) or abandoned (running, its lease expired). */
const claimable = (at: string) => (w: ExpressionBuilder<Database, 'jobs'>) =>
  w.or([
    w.and([w('state', '=', 'queued'), w('run_after', '<=', at)]),
    w.and([w('state', '=', 'running'), w('locked_until', '<=', at)]),
  ]);

/** Plain queries on the `jobs` table (migration 0027) for the one job queue; the rules are in `queue.ts`. */
export const createJobsRepository = (db: Db, dialect: Dialect, holder: string) => ({
  /** One conditional UPDATE: the oldest due job of `kind`, or one whose lease expired, becomes ours. */
  async claim(kind: string, at: string, lockedUntil: string, maxAttempts: number): Promise<QueueJob | undefined> {
    const row = await db
      .updateTable('jobs')
      .set({
        state: 'running',
        locked_by: holder,
        locked_until: lockedUntil,
        attempts: sql<number>`attempts + 1`,
        progress: 0,
        updated_at: at,
      })
      .where('id', '=', (eb) =>
        eb
          .selectFrom('jobs')
          .select('id')
          .where('kind', '=', kind)
          .where('attempts', '<', maxAttempts)
          .where(claimable(at))
          .orderBy('run_after')
          .orderBy('created_at')
          .limit(1)
          .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked()),
      )
      // Checked again on the row itself: another instance may have taken it meanwhile (SQLite has no SKIP LOCKED).
      .where(claimable(at))
      .returning(RETURNED)
      .executeTakeFirst();
    return row && toJob(row);
  },

  /** Marks failed the jobs of `kind` whose last run died with its instance after the last attempt. */
  async failExhausted(kind: string, at: string, maxAttempts: number): Promise<QueueJob[]> {
    const rows = await db
      .updateTable('jobs')
      .set({ state: 'failed', locked_by: null, locked_until: null, updated_at: at })
      .where('state', '=', 'running')
      .where('locked_until', '<=', at)
      .where('attempts', '>=', maxAttempts)
      .where('kind', '=', kind)
      .returning(RETURNED)
      .execute();
    return rows.map(toJob);
  },

  /**
   * Changes a job this instance runs (`locked_by` is us and it is running); false when the lease was lost meanwhile.
   */
  async updateHeld(
    executor: Db,
    id: string,
    set: {
      state?: JobState;
      run_after?: string;
      locked_by?: null;
      locked_until?: string | null;
      progress?: number;
      last_error?: string | null;
      attempts?: 'one-less';
      updated_at: string;
    },
    options: { stillRunning?: boolean } = {},
  ): Promise<boolean> {
    const { attempts, ...rest } = set;
    const result = await executor
      .updateTable('jobs')
      .set({ ...rest, ...(attempts ? { attempts: sql<number>`attempts - 1` } : {}) })
      .where('id', '=', id)
      .where('locked_by', '=', holder)
      .$if(options.stillRunning !== false, (q) => q.where('state', '=', 'running'))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** Whether any job of `kinds` is due or has an expired lease: a read, so an idle queue's polls write nothing. */
  async anythingDue(kinds: string[], at: string): Promise<boolean> {
    const row = await db
      .selectFrom('jobs')
      .select('id')
      .where('kind', 'in', kinds)
      .where(claimable(at))
      .limit(1)
      .executeTakeFirst();
    return Boolean(row);
  },

  /**
   * Adds a job unless one for this file, kind and content exists; true when it was added. Finished jobs of the file
   * and kind go first: new content, even one the file had before (a version made current again), is worked on again.
   */
  async enqueue(executor: Db, kind: string, key: JobKey, at: string, runAfter: string): Promise<boolean> {
    await executor
      .deleteFrom('jobs')
      .where('file_id', '=', key.fileId)
      .where('kind', '=', kind)
      .where('state', 'in', ['done', 'failed'])
      .execute();
    const result = await executor
      .insertInto('jobs')
      .values({
        id: randomUUID(),
        kind,
        file_id: key.fileId,
        content_sha: key.contentSha,
        state: 'queued',
        attempts: 0,
        run_after: runAfter,
        progress: 0,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.columns(['file_id', 'kind', 'content_sha']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  },

  /**
   * Removes every job of `kinds` for a file or for a workspace's files, whatever its state (a run in progress loses
   * its lease and saves nothing).
   */
  async forget(executor: Db, files: { fileId: string } | { workspaceId: string }, kinds: string[]): Promise<void> {
    if (kinds.length === 0) return;
    await executor
      .deleteFrom('jobs')
      .where('kind', 'in', kinds)
      .where(
        'file_id',
        'in',
        'fileId' in files
          ? [files.fileId]
          : executor.selectFrom('files').select('id').where('workspace_id', '=', files.workspaceId),
      )
      .execute();
  },

  /** The newest job of `kinds` for this content: its state, progress and last error. */
  async latest(key: JobKey, kinds: string[]) {
    if (kinds.length === 0) return undefined;
    const row = await db
      .selectFrom('jobs')
      .select(['state', 'progress', 'last_error'])
      .where('file_id', '=', key.fileId)
      .where('content_sha', '=', key.contentSha)
      .where('kind', 'in', kinds)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row && { state: row.state, progress: Number(row.progress), lastError: row.last_error };
  },

  /** Jobs per state (queued, running, failed), across all instances and kinds. */
  /** Per kind: jobs waiting and running, failed for good, and when the oldest waiting one was queued. */
  async statsByKind(): Promise<
    { kind: string; queued: number; running: number; failed: number; oldestQueuedAt: string | null }[]
  > {
    const rows = await db
      .selectFrom('jobs')
      .select([
        'kind',
        'state',
        (eb) => eb.fn.countAll<number | string | bigint>().as('count'),
        (eb) => eb.fn.min<string>('created_at').as('oldest'),
      ])
      .where('state', 'in', ['queued', 'running', 'failed'])
      .groupBy(['kind', 'state'])
      .execute();
    const byKind = new Map<
      string,
      { kind: string; queued: number; running: number; failed: number; oldestQueuedAt: string | null }
    >();
    for (const row of rows) {
      const entry = byKind.get(row.kind) ?? { kind: row.kind, queued: 0, running: 0, failed: 0, oldestQueuedAt: null };
      const state = row.state as 'queued' | 'running' | 'failed';
      entry[state] = Number(row.count);
      if (state === 'queued') entry.oldestQueuedAt = row.oldest;
      byKind.set(row.kind, entry);
    }
    return [...byKind.values()];
  },

  async countByState(): Promise<{ queued: number; running: number; failed: number }> {
    const rows = await db
      .selectFrom('jobs')
      .select(['state', (eb) => eb.fn.countAll<number | string | bigint>().as('count')])
      .where('state', 'in', ['queued', 'running', 'failed'])
      .groupBy('state')
      .execute();
    const count = (state: string) => Number(rows.find((row) => row.state === state)?.count ?? 0);
    return { queued: count('queued'), running: count('running'), failed: count('failed') };
  },
});

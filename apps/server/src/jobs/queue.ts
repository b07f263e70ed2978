import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, Dialect } from '../db';
import { iso, type Clock } from '../lib/time';

/**
 * A durable job queue in the database (`analysis_jobs`, migration 0018), for work that must survive a crash: every
 * instance claims jobs with one conditional UPDATE (on PostgreSQL the candidate is picked with `FOR UPDATE SKIP
 * LOCKED`, so instances never wait on or take the same row; SQLite has one writer), holds a lease it renews while the
 * job runs, and finishes the job and saves its result in one transaction only while it still holds the lease. A lease
 * that expires (the instance was killed) makes the job claimable again, so no job is lost and no result is saved
 * twice. Failures are retried with exponential backoff up to `maxAttempts`; each run has a time-out. Jobs are
 * identified by (file, kind, content hash): enqueueing the same content again changes nothing.
 */

export interface QueueJob {
  id: string;
  kind: string;
  fileId: string;
  contentSha: string;
  /** Runs so far, this one included. */
  attempts: number;
}

export interface JobContext {
  job: QueueJob;
  /** Aborted on time-out, on shutdown and when the lease was lost. */
  signal: AbortSignal;
  /** Records progress (0…1); the insights answer shows it while the job runs. */
  progress(fraction: number): Promise<void>;
}

/**
 * Saves a job's result inside the transaction that marks it done; may return what to do once that transaction has
 * committed (e.g. tell another module).
 */
export type Commit = (trx: Db) => Promise<AfterCommit | undefined>;
export type AfterCommit = () => Promise<void> | void;

export interface JobKind {
  /** Jobs of this kind running at once on one instance. */
  concurrency: number;
  run(context: JobContext): Promise<Commit | undefined>;
}

/** An error that retrying cannot fix (bad input, unsupported content): the job fails at once. */
export class PermanentJobError extends Error {
  constructor(
    message: string,
    readonly outcome: 'failed' | 'unsupported' = 'failed',
  ) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

export interface JobQueueOptions {
  db: Db;
  dialect: Dialect;
  clock: Clock;
  kinds: Record<string, JobKind>;
  /** Called (in a transaction) when a job has failed for good: e.g. to record the failure with the file. */
  onGaveUp?: (trx: Db, job: QueueJob, error: string, outcome: 'failed' | 'unsupported') => Promise<void>;
  log: { info(details: object, message: string): void; warn(details: object, message: string): void };
  holder?: string;
  leaseMs?: number;
  pollMs?: number;
  maxAttempts?: number;
  backoffMs?: number;
  timeoutMs?: number;
}

type Row = {
  id: string;
  kind: string;
  file_id: string;
  content_sha: string;
  attempts: number;
};
const toJob = (row: Row): QueueJob => ({
  id: row.id,
  kind: row.kind,
  fileId: row.file_id,
  contentSha: row.content_sha,
  attempts: Number(row.attempts),
});

class LeaseLost extends Error {
  constructor() {
    super('the job’s lease was lost to another instance');
  }
}

export function createJobQueue(options: JobQueueOptions) {
  const {
    db,
    dialect,
    clock,
    kinds,
    log,
    holder = randomUUID(),
    leaseMs = 30_000,
    pollMs = 1000,
    maxAttempts = 3,
    backoffMs = 5000,
    timeoutMs = 10 * 60_000,
  } = options;
  const active = new Map<string, Set<Promise<void>>>();
  const controllers = new Set<AbortController>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | undefined;
  let again = false;

  // Queues of different modules share the table: each looks only at its own kinds.
  const kindNames = Object.keys(kinds);
  const now = () => clock.now();
  const later = (ms: number) => iso(new Date(now().getTime() + ms));

  /** One conditional UPDATE: the oldest due job of `kind`, or one whose lease expired, becomes ours. */
  async function claim(kind: string): Promise<QueueJob | undefined> {
    const at = iso(now());
    const row = await db
      .updateTable('analysis_jobs')
      .set({
        state: 'running',
        locked_by: holder,
        locked_until: later(leaseMs),
        attempts: sql<number>`attempts + 1`,
        progress: 0,
        updated_at: at,
      })
      .where('id', '=', (eb) =>
        eb
          .selectFrom('analysis_jobs')
          .select('id')
          .where('kind', '=', kind)
          .where('attempts', '<', maxAttempts)
          .where((w) =>
            w.or([
              w.and([w('state', '=', 'queued'), w('run_after', '<=', at)]),
              w.and([w('state', '=', 'running'), w('locked_until', '<=', at)]),
            ]),
          )
          .orderBy('run_after')
          .orderBy('created_at')
          .limit(1)
          .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked()),
      )
      // Checked again on the row itself: another instance may have taken it meanwhile (SQLite has no SKIP LOCKED).
      .where((w) =>
        w.or([
          w.and([w('state', '=', 'queued'), w('run_after', '<=', at)]),
          w.and([w('state', '=', 'running'), w('locked_until', '<=', at)]),
        ]),
      )
      .returning(['id', 'kind', 'file_id', 'content_sha', 'attempts'])
      .executeTakeFirst();
    return row && toJob(row);
  }

  /** Jobs whose last run died with its instance after the last attempt: failed for good. */
  async function giveUpExhausted(): Promise<void> {
    const at = iso(now());
    const rows = await db
      .updateTable('analysis_jobs')
      .set({ state: 'failed', locked_by: null, locked_until: null, updated_at: at })
      .where('state', '=', 'running')
      .where('locked_until', '<=', at)
      .where('attempts', '>=', maxAttempts)
      .where('kind', 'in', kindNames)
      .returning(['id', 'kind', 'file_id', 'content_sha', 'attempts'])
      .execute();
    for (const row of rows) {
      const message = 'The analysis stopped several times before it finished.';
      await db
        .transaction()
        .execute((trx) => options.onGaveUp?.(trx, toJob(row), message, 'failed') ?? Promise.resolve());
    }
  }

  async function renew(job: QueueJob): Promise<boolean> {
    const result = await db
      .updateTable('analysis_jobs')
      .set({ locked_until: later(leaseMs), updated_at: iso(now()) })
      .where('id', '=', job.id)
      .where('locked_by', '=', holder)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async function fail(job: QueueJob, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const permanent = error instanceof PermanentJobError;
    const final = permanent || job.attempts >= maxAttempts;
    await db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('analysis_jobs')
        .set({
          state: final ? 'failed' : 'queued',
          run_after: final ? iso(now()) : later(backoffMs * 2 ** (job.attempts - 1)),
          locked_by: null,
          locked_until: null,
          last_error: message.slice(0, 2000),
          updated_at: iso(now()),
        })
        .where('id', '=', job.id)
        .where('locked_by', '=', holder)
        .where('state', '=', 'running')
        .executeTakeFirst();
      if (final && Number(result.numUpdatedRows) > 0)
        await options.onGaveUp?.(trx, job, message, permanent ? error.outcome : 'failed');
    });
    log.warn({ job: job.id, kind: job.kind, attempts: job.attempts, final, err: message }, 'analysis job failed');
  }

  /** Hands a job back without counting the run (graceful shutdown). */
  async function release(job: QueueJob): Promise<void> {
    await db
      .updateTable('analysis_jobs')
      .set({
        state: 'queued',
        locked_by: null,
        locked_until: null,
        attempts: sql<number>`attempts - 1`,
        updated_at: iso(now()),
      })
      .where('id', '=', job.id)
      .where('locked_by', '=', holder)
      .where('state', '=', 'running')
      .execute();
  }

  async function execute(kind: JobKind, job: QueueJob): Promise<void> {
    const controller = new AbortController();
    controllers.add(controller);
    const renewal = setInterval(
      () =>
        void renew(job).then(
          (held) => held || controller.abort(new LeaseLost()),
          (error: unknown) => log.warn({ err: error, job: job.id }, 'could not renew an analysis job’s lease'),
        ),
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    const timeout = setTimeout(
      () => controller.abort(new Error(`The analysis took longer than ${Math.round(timeoutMs / 1000)} s.`)),
      timeoutMs,
    );
    const aborted = new Promise<never>((_resolve, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true });
    });
    aborted.catch(() => undefined);
    try {
      const commit = await Promise.race([
        kind.run({
          job,
          signal: controller.signal,
          progress: async (fraction) => {
            await db
              .updateTable('analysis_jobs')
              .set({ progress: Math.max(0, Math.min(1, fraction)), updated_at: iso(now()) })
              .where('id', '=', job.id)
              .where('locked_by', '=', holder)
              .execute();
          },
        }),
        aborted,
      ]);
      let after: AfterCommit | undefined;
      await db.transaction().execute(async (trx) => {
        const done = await trx
          .updateTable('analysis_jobs')
          .set({
            state: 'done',
            progress: 1,
            locked_by: null,
            locked_until: null,
            last_error: null,
            updated_at: iso(now()),
          })
          .where('id', '=', job.id)
          .where('locked_by', '=', holder)
          .where('state', '=', 'running')
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) === 0) throw new LeaseLost();
        after = await commit?.(trx);
      });
      if (after)
        await Promise.resolve(after()).catch((error: unknown) =>
          log.warn({ err: error, job: job.id }, 'after an analysis job'),
        );
    } catch (error) {
      const reason = controller.signal.aborted ? controller.signal.reason : error;
      if (reason instanceof LeaseLost) log.warn({ job: job.id }, 'an analysis job was taken over by another instance');
      else if (!running && controller.signal.aborted) await release(job).catch(() => undefined);
      else
        await fail(job, reason).catch((e: unknown) => log.warn({ err: e, job: job.id }, 'could not record a failure'));
    } finally {
      clearInterval(renewal);
      clearTimeout(timeout);
      controllers.delete(controller);
    }
  }

  /** Whether any job of this queue's kinds is due or has an expired lease: a read, so an idle queue's polls write nothing. */
  async function anythingDue(): Promise<boolean> {
    const at = iso(now());
    const row = await db
      .selectFrom('analysis_jobs')
      .select('id')
      .where('kind', 'in', kindNames)
      .where((w) =>
        w.or([
          w.and([w('state', '=', 'queued'), w('run_after', '<=', at)]),
          w.and([w('state', '=', 'running'), w('locked_until', '<=', at)]),
        ]),
      )
      .limit(1)
      .executeTakeFirst();
    return Boolean(row);
  }

  /** Claims as many jobs as each kind has free slots, and starts them. */
  async function pump(): Promise<void> {
    if (kindNames.length === 0 || !(await anythingDue())) return;
    await giveUpExhausted();
    for (const [name, kind] of Object.entries(kinds)) {
      const slots = active.get(name) ?? new Set<Promise<void>>();
      active.set(name, slots);
      while (running && slots.size < kind.concurrency) {
        const job = await claim(name);
        if (!job) break;
        if (!running) {
          // Stopped while claiming: hand it back at once.
          await release(job);
          break;
        }
        const run: Promise<void> = execute(kind, job).finally(() => {
          slots.delete(run);
          if (running) queue.kick();
        });
        slots.add(run);
      }
    }
  }

  function schedule(): void {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(() => queue.kick(), pollMs);
    timer.unref();
  }

  const queue = {
    holder,
    /** Adds a job unless one for this file, kind and content exists; true when it was added. */
    async enqueue(
      executor: Db,
      job: { kind: string; fileId: string; contentSha: string; runAfter?: Date },
    ): Promise<boolean> {
      const at = iso(now());
      const result = await executor
        .insertInto('analysis_jobs')
        .values({
          id: randomUUID(),
          kind: job.kind,
          file_id: job.fileId,
          content_sha: job.contentSha,
          state: 'queued',
          attempts: 0,
          run_after: job.runAfter ? iso(job.runAfter) : at,
          progress: 0,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.columns(['file_id', 'kind', 'content_sha']).doNothing())
        .executeTakeFirst();
      const added = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
      if (added) queue.kick();
      return added;
    },
    /** Looks for work now (after an enqueue, when a slot frees) instead of at the next poll. */
    kick(): void {
      if (!running) return;
      if (pumping) {
        again = true;
        return;
      }
      pumping = pump()
        .catch((error: unknown) => log.warn({ err: error }, 'the analysis queue could not claim jobs'))
        .finally(() => {
          pumping = undefined;
          if (again) {
            again = false;
            queue.kick();
          } else schedule();
        });
    },
    start(): void {
      if (running) return;
      running = true;
      queue.kick();
    },
    /** Stops claiming, aborts the runs in progress and hands their jobs back (not counted as attempts). */
    async stop(): Promise<void> {
      running = false;
      clearTimeout(timer);
      await pumping;
      for (const controller of controllers) controller.abort(new Error('the server is stopping'));
      await Promise.all([...active.values()].flatMap((slots) => [...slots]));
    },
    /** How many jobs wait (queued, due or not), run (on any instance) and failed for good, across all instances. */
    async stats(): Promise<{ queued: number; running: number; failed: number }> {
      const rows = await db
        .selectFrom('analysis_jobs')
        .select(['state', (eb) => eb.fn.countAll<number | string | bigint>().as('count')])
        .where('state', 'in', ['queued', 'running', 'failed'])
        .groupBy('state')
        .execute();
      const count = (state: string) => Number(rows.find((row) => row.state === state)?.count ?? 0);
      return { queued: count('queued'), running: count('running'), failed: count('failed') };
    },
    /** Jobs running on this instance now. */
    get runningCount(): number {
      return [...active.values()].reduce((sum, slots) => sum + slots.size, 0);
    },
  };
  return queue;
}

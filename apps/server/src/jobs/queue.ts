import { randomUUID } from 'node:crypto';
import type { Db, Dialect } from '../db';
import { iso, type Clock } from '../lib/time';
import { createJobsRepository, type JobKey, type QueueJob } from './jobs.repository';

export type { JobKey, QueueJob } from './jobs.repository';

/**
 * The one durable job queue in the database (`jobs`, migration 0027), for work that must survive a crash. It is built
 * once by `app.ts`; modules register their kinds (`register(kind, handler)`: analysis per file type, thumbnails) and
 * enqueue with `enqueue(kind, key)`. Every instance claims jobs with one conditional UPDATE (on PostgreSQL the
 * candidate is picked with `FOR UPDATE SKIP LOCKED`, so instances never wait on or take the same row; SQLite has one
 * writer), holds a lease it renews while the job runs, and finishes the job and saves its result in one transaction
 * only while it still holds the lease. A lease that expires (the instance was killed) makes the job claimable again,
 * so no job is lost and no result is saved twice. Failures are retried with exponential backoff up to
 * `maxAttempts`; each run has a time-out. Jobs are identified by (file, kind, content hash): enqueueing the same
 * content again while a job waits changes nothing.
 */

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

/** How a kind's jobs are run: the queue's defaults unless the kind says otherwise. */
export interface JobTuning {
  /** How long a claimed job stays ours without a renewal (renewed every third of it while it runs). */
  leaseMs?: number;
  maxAttempts?: number;
  /** The first retry's delay; doubled for each further one. */
  backoffMs?: number;
  /** Per-run time-out. */
  timeoutMs?: number;
}

export interface JobKind extends JobTuning {
  /** Jobs of this kind running at once on one instance. */
  concurrency: number;
  run(context: JobContext): Promise<Commit | undefined>;
  /** Called (in a transaction) when a job has failed for good: e.g. to record the failure with the file. */
  onGaveUp?: (trx: Db, job: QueueJob, error: string, outcome: 'failed' | 'unsupported') => Promise<void>;
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

export interface JobQueueOptions extends JobTuning {
  db: Db;
  dialect: Dialect;
  clock: Clock;
  log: { info(details: object, message: string): void; warn(details: object, message: string): void };
  holder?: string;
  pollMs?: number;
  /** Told how each run on this instance ended and how long it took (the `/metrics` job histogram). */
  onRunEnded?: (kind: string, seconds: number, outcome: 'done' | 'retried' | 'failed') => void;
}

const DEFAULTS: Required<JobTuning> = { leaseMs: 30_000, maxAttempts: 3, backoffMs: 5000, timeoutMs: 10 * 60_000 };

class LeaseLost extends Error {
  constructor() {
    super('the job’s lease was lost to another instance');
  }
}

type Registered = JobKind & Required<JobTuning>;

export function createJobQueue(options: JobQueueOptions) {
  const { db, clock, log, holder = randomUUID(), pollMs = 1000 } = options;
  // Tuning given to the queue (tests) wins over each kind's own.
  const { leaseMs, maxAttempts, backoffMs, timeoutMs } = options;
  const overrides = Object.fromEntries(
    Object.entries({ leaseMs, maxAttempts, backoffMs, timeoutMs }).filter(([, value]) => value !== undefined),
  );
  const repo = createJobsRepository(db, options.dialect, holder);
  const kinds = new Map<string, Registered>();
  const active = new Map<string, Set<Promise<void>>>();
  const controllers = new Set<AbortController>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | undefined;
  let again = false;

  const now = () => iso(clock.now());
  const later = (ms: number) => iso(new Date(clock.now().getTime() + ms));

  /** Jobs whose last run died with its instance after the last attempt: failed for good. */
  async function giveUpExhausted(): Promise<void> {
    for (const [name, kind] of kinds) {
      for (const job of await repo.failExhausted(name, now(), kind.maxAttempts)) {
        const message = 'The analysis stopped several times before it finished.';
        await db.transaction().execute((trx) => kind.onGaveUp?.(trx, job, message, 'failed') ?? Promise.resolve());
      }
    }
  }

  async function fail(kind: Registered, job: QueueJob, error: unknown, startedAt: number): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const permanent = error instanceof PermanentJobError;
    const final = permanent || job.attempts >= kind.maxAttempts;
    options.onRunEnded?.(job.kind, (performance.now() - startedAt) / 1000, final ? 'failed' : 'retried');
    await db.transaction().execute(async (trx) => {
      const held = await repo.updateHeld(trx, job.id, {
        state: final ? 'failed' : 'queued',
        run_after: final ? now() : later(kind.backoffMs * 2 ** (job.attempts - 1)),
        locked_by: null,
        locked_until: null,
        last_error: message.slice(0, 2000),
        updated_at: now(),
      });
      if (final && held) await kind.onGaveUp?.(trx, job, message, permanent ? error.outcome : 'failed');
    });
    log.warn({ job: job.id, kind: job.kind, attempts: job.attempts, final, err: message }, 'a background job failed');
  }

  /** Hands a job back without counting the run (graceful shutdown). */
  const release = (job: QueueJob) =>
    repo.updateHeld(db, job.id, {
      state: 'queued',
      locked_by: null,
      locked_until: null,
      attempts: 'one-less',
      updated_at: now(),
    });

  async function execute(kind: Registered, job: QueueJob): Promise<void> {
    const startedAt = performance.now();
    const controller = new AbortController();
    controllers.add(controller);
    const renewal = setInterval(
      () =>
        void repo.updateHeld(db, job.id, { locked_until: later(kind.leaseMs), updated_at: now() }).then(
          (held) => held || controller.abort(new LeaseLost()),
          (error: unknown) => log.warn({ err: error, job: job.id }, 'could not renew a background job’s lease'),
        ),
      Math.max(50, Math.floor(kind.leaseMs / 3)),
    );
    const timeout = setTimeout(
      () => controller.abort(new Error(`The analysis took longer than ${Math.round(kind.timeoutMs / 1000)} s.`)),
      kind.timeoutMs,
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
            const clamped = Math.max(0, Math.min(1, fraction));
            await repo.updateHeld(db, job.id, { progress: clamped, updated_at: now() }, { stillRunning: false });
          },
        }),
        aborted,
      ]);
      let after: AfterCommit | undefined;
      await db.transaction().execute(async (trx) => {
        const done = { state: 'done', progress: 1, locked_by: null, locked_until: null, last_error: null } as const;
        if (!(await repo.updateHeld(trx, job.id, { ...done, updated_at: now() }))) throw new LeaseLost();
        after = await commit?.(trx);
      });
      options.onRunEnded?.(job.kind, (performance.now() - startedAt) / 1000, 'done');
      if (after)
        await Promise.resolve(after()).catch((error: unknown) =>
          log.warn({ err: error, job: job.id }, 'after a background job'),
        );
    } catch (error) {
      const reason = controller.signal.aborted ? controller.signal.reason : error;
      if (reason instanceof LeaseLost) log.warn({ job: job.id }, 'a background job was taken over by another instance');
      else if (!running && controller.signal.aborted) await release(job).catch(() => undefined);
      else
        await fail(kind, job, reason, startedAt).catch((e: unknown) =>
          log.warn({ err: e, job: job.id }, 'could not record a failure'),
        );
    } finally {
      clearInterval(renewal);
      clearTimeout(timeout);
      controllers.delete(controller);
    }
  }

  /** Claims as many jobs as each kind has free slots, and starts them. */
  async function pump(): Promise<void> {
    if (kinds.size === 0 || !(await repo.anythingDue([...kinds.keys()], now()))) return;
    await giveUpExhausted();
    for (const [name, kind] of kinds) {
      const slots = active.get(name) ?? new Set<Promise<void>>();
      active.set(name, slots);
      while (running && slots.size < kind.concurrency) {
        const job = await repo.claim(name, now(), later(kind.leaseMs), kind.maxAttempts);
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
    /** Makes this instance run jobs of `kind` (a module, when it is built; before `start`). */
    register(name: string, kind: JobKind): void {
      if (kinds.has(name)) throw new Error(`The job kind ${name} is registered twice.`);
      kinds.set(name, { ...DEFAULTS, ...kind, ...overrides });
    },
    /**
     * Adds a job for this content unless one waits or runs for it already; true when it was added. A finished job of
     * the file and kind goes first, so new content is worked on even if the file had it before (a version made
     * current again). Runs in `executor` when given (a transaction the caller commits), else in its own transaction.
     */
    async enqueue(kind: string, key: JobKey, options: { executor?: Db; runAfter?: Date } = {}): Promise<boolean> {
      const at = now();
      const runAfter = options.runAfter ? iso(options.runAfter) : at;
      const executor = options.executor;
      const added = executor
        ? await repo.enqueue(executor, kind, key, at, runAfter)
        : await db.transaction().execute((trx) => repo.enqueue(trx, kind, key, at, runAfter));
      if (added) queue.kick();
      return added;
    },
    /** Removes the jobs of `kinds` for a file or a workspace's files, whatever their state. */
    forget: (executor: Db, files: { fileId: string } | { workspaceId: string }, names: string[]) =>
      repo.forget(executor, files, names),
    /** The newest job of `names` for this content (state, progress, last error), to show while it waits or runs. */
    latest: (key: JobKey, names: string[]) => repo.latest(key, names),
    /** Looks for work now (after an enqueue, when a slot frees) instead of at the next poll. */
    kick(): void {
      if (!running) return;
      if (pumping) {
        again = true;
        return;
      }
      pumping = pump()
        .catch((error: unknown) => log.warn({ err: error }, 'the job queue could not claim jobs'))
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
    stats: () => repo.countByState(),
    /** The same per kind, with when the oldest waiting job was queued (`/metrics`). */
    statsByKind: () => repo.statsByKind(),
    /** Jobs running on this instance now. */
    get runningCount(): number {
      return [...active.values()].reduce((sum, slots) => sum + slots.size, 0);
    },
  };
  return queue;
}

export type JobQueue = ReturnType<typeof createJobQueue>;

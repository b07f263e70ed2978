import type { LeaseStore } from './leases';

/** A named piece of scheduled work. Adding one is a definition in `jobs/index.ts`. */
export interface JobDefinition {
  name: string;
  /** Time between the starts of two runs. */
  intervalMs: number;
  /** Run once soon after start-up (after a small random delay), not only after the first interval. Default true. */
  runOnStart?: boolean;
  /**
   * Run on one instance per interval: the instance that takes the job's lease (`LeaseStore`) runs it, the others
   * skip that tick. For work on shared state (the database, the bucket). Work on an instance's own disk or memory
   * runs everywhere.
   */
  once?: boolean;
  /** The work; `signal` aborts when the scheduler stops. Errors are logged, and the next tick runs again. */
  run(signal: AbortSignal): Promise<unknown>;
}

export interface SchedulerDeps {
  leases: LeaseStore;
  log: {
    info(details: object, message: string): void;
    warn(details: object, message: string): void;
  };
  /** The first run of a `runOnStart` job waits up to this long, so instances started together spread out. */
  startJitterMs?: number;
}

/**
 * The one home of scheduled work: each job runs every `intervalMs`, never two runs of one job at once on an
 * instance, `once` jobs on one instance per interval. `start()` at ready, `stop()` on close (aborts and waits for
 * the runs in progress).
 */
export function createScheduler({ leases, log, startJitterMs = 2_000 }: SchedulerDeps) {
  const jobs = new Map<string, JobDefinition>();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Map<string, Promise<void>>();
  const controller = new AbortController();
  let started = false;

  const later = (fn: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  /** One tick of a job: skipped while its previous run is still going, or when another instance holds its lease. */
  async function tick(job: JobDefinition): Promise<void> {
    if (controller.signal.aborted || running.has(job.name)) return;
    const run = (async () => {
      try {
        // The lease lasts a little less than the interval, so the next tick of whichever instance comes first
        // may take it.
        if (job.once && !(await leases.acquire(job.name, Math.max(1, Math.floor(job.intervalMs * 0.9))))) return;
        await job.run(controller.signal);
      } catch (error) {
        if (!controller.signal.aborted) log.warn({ err: error, job: job.name }, 'scheduled job failed');
      }
    })();
    running.set(job.name, run);
    try {
      await run;
    } finally {
      running.delete(job.name);
    }
  }

  function schedule(job: JobDefinition) {
    const loop = () => {
      if (controller.signal.aborted) return;
      later(() => {
        void tick(job);
        loop();
      }, job.intervalMs);
    };
    if (job.runOnStart ?? true) later(() => void tick(job), Math.floor(Math.random() * startJitterMs));
    loop();
  }

  return {
    /** Adds a job (before or after `start`). Names are unique. */
    add(job: JobDefinition) {
      if (jobs.has(job.name)) throw new Error(`A job named ${job.name} is already scheduled.`);
      if (!(job.intervalMs > 0)) throw new Error(`Job ${job.name}: intervalMs must be positive.`);
      jobs.set(job.name, job);
      if (started) schedule(job);
    },
    start() {
      if (started) return;
      started = true;
      for (const job of jobs.values()) schedule(job);
    },
    /** Runs a job now (tests, an admin button), with the same rules as a tick. */
    runNow(name: string): Promise<void> {
      const job = jobs.get(name);
      if (!job) throw new Error(`No job named ${name}.`);
      return tick(job);
    },
    /** The scheduled jobs' names and intervals. */
    list: () => [...jobs.values()].map(({ name, intervalMs, once }) => ({ name, intervalMs, once: once ?? false })),
    async stop() {
      controller.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled(running.values());
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;

/**
 * A small worker-thread pool for one engine.
 *
 * - bounded concurrency: `concurrency` workers, each runs one job at a time;
 * - FIFO queue with a maximum length (`QueueFullError` beyond it);
 * - per-job timeout: the worker is terminated and a fresh one started, the job
 *   rejects with `TimeoutError`;
 * - lazy start (first job or `warmUp()`), readiness via `state()`;
 * - idle unload: after `idleUnloadMs` with no job waiting or running, every worker is terminated
 *   (its models' memory goes back to the system); the next job starts them again and waits for
 *   the load, which is bounded by `startTimeoutMs`, not by the job's `timeoutMs`;
 * - `close()` terminates everything and rejects pending jobs.
 *
 * Worker entry files speak the protocol in `worker-runtime.ts`.
 */
import { Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';
import {
  EngineFailedError,
  EngineUnavailableError,
  QueueFullError,
  TimeoutError,
  errorFromCode,
  type AiEngineError,
} from './errors.js';
import { createIdleTimer, type IdleTimer } from './idle-timer.js';
import type { WorkerToMain, MainToWorker } from './worker-runtime.js';
import { resolveWorkerEntry } from './worker-entry.js';

export type EngineStatus = 'idle' | 'loading' | 'ready' | 'error';
export interface EngineState {
  status: EngineStatus;
  message?: string;
}

export interface PoolLimits {
  /** Number of worker threads (= jobs running at once). Default 1. */
  concurrency?: number;
  /** Jobs allowed to wait for a worker; one more rejects with QueueFullError. Default 8. */
  maxQueue?: number;
  /** Time limit of one job once it runs in a worker, in ms. Default 60 000. */
  timeoutMs?: number;
  /** Time limit for a worker to load its engine/models, in ms. Default 120 000. */
  startTimeoutMs?: number;
  /** Terminate the workers after this long without jobs, in ms; 0 (default) = never. */
  idleUnloadMs?: number;
}

/** The limits an engine's options carry, with the engine's default job time-out. */
export const poolLimits = (options: PoolLimits, defaultTimeoutMs = 30_000): PoolLimits => ({
  concurrency: options.concurrency,
  maxQueue: options.maxQueue,
  timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
  startTimeoutMs: options.startTimeoutMs,
  idleUnloadMs: options.idleUnloadMs,
});

export interface WorkerPoolOptions extends PoolLimits {
  /** Human name used in messages, e.g. "Speech-to-text". */
  name: string;
  /**
   * Worker entry. Give the TypeScript source URL (`new URL('./x.worker.ts', import.meta.url)`);
   * see `resolveWorkerEntry()` (worker-entry.ts) for how it is mapped to a built `.js` file.
   */
  workerUrl: URL;
  workerData?: unknown;
  resourceLimits?: ResourceLimits;
}

export interface RunOptions {
  transfer?: TransferListItem[];
  /** Overrides the pool's timeout for this job. */
  timeoutMs?: number;
}

interface Job {
  id: number;
  payload: unknown;
  transfer: TransferListItem[];
  timeoutMs: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

type SlotStatus = 'starting' | 'ready' | 'busy' | 'dead';

interface Slot {
  worker: Worker;
  status: SlotStatus;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
  started: Promise<void>;
}

export class WorkerPool<Req, Res> {
  readonly name: string;
  private readonly opts: Required<PoolLimits>;
  private readonly workerUrl: URL;
  private readonly workerData: unknown;
  private readonly resourceLimits: ResourceLimits | undefined;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private lastStartError: AiEngineError | undefined;
  private readonly idleTimer: IdleTimer;
  private unloads = 0;

  constructor(options: WorkerPoolOptions) {
    this.name = options.name;
    this.workerUrl = options.workerUrl;
    this.workerData = options.workerData;
    this.resourceLimits = options.resourceLimits;
    this.opts = {
      concurrency: Math.max(1, Math.floor(options.concurrency ?? 1)),
      maxQueue: Math.max(0, Math.floor(options.maxQueue ?? 8)),
      timeoutMs: options.timeoutMs ?? 60_000,
      startTimeoutMs: options.startTimeoutMs ?? 120_000,
      idleUnloadMs: Math.max(0, options.idleUnloadMs ?? 0),
    };
    this.idleTimer = createIdleTimer(this.opts.idleUnloadMs, () => this.unload());
  }

  /** Runs one job; resolves with the worker's value or rejects with a typed error. */
  run(payload: Req, options: RunOptions = {}): Promise<Res> {
    if (this.closed) {
      return Promise.reject(new EngineUnavailableError(`${this.name} engine has been shut down`));
    }
    return new Promise<Res>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        payload,
        transfer: options.transfer ?? [],
        timeoutMs: options.timeoutMs ?? this.opts.timeoutMs,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      this.idleTimer.disarm();
      const idle = this.slots.some((s) => s.status === 'ready');
      if (!idle && this.queue.length >= this.opts.maxQueue) {
        reject(
          new QueueFullError(
            `${this.name} is busy: ${this.queue.length} requests are already waiting (limit ${this.opts.maxQueue}); try again later`,
          ),
        );
        return;
      }
      this.queue.push(job);
      try {
        this.ensureStarted();
      } catch (error) {
        this.queue.splice(this.queue.indexOf(job), 1);
        reject(error as Error);
        return;
      }
      this.pump();
    });
  }

  /** Starts all workers (models load) and resolves when they are ready. */
  async warmUp(): Promise<void> {
    if (this.closed) throw new EngineUnavailableError(`${this.name} engine has been shut down`);
    this.ensureStarted();
    await Promise.all(this.slots.map((s) => s.started));
    this.armIdleTimer();
  }

  state(): EngineState {
    if (this.closed) return { status: 'idle', message: 'closed' };
    const live = this.slots.filter((s) => s.status !== 'dead');
    if (live.some((s) => s.status === 'ready' || s.status === 'busy')) return { status: 'ready' };
    if (live.some((s) => s.status === 'starting')) return { status: 'loading' };
    if (this.lastStartError) return { status: 'error', message: this.lastStartError.message };
    if (this.unloads > 0) {
      return {
        status: 'idle',
        message: `Unloaded after ${formatDuration(this.opts.idleUnloadMs)} without requests; loads again on the next one`,
      };
    }
    return { status: 'idle', message: 'Not loaded yet; loads on the first request' };
  }

  /** Jobs waiting and running, live workers, idle unloads so far; for tests and metrics. */
  stats(): { queued: number; running: number; workers: number; unloads: number } {
    return {
      queued: this.queue.length,
      running: this.slots.filter((s) => s.status === 'busy').length,
      workers: this.slots.filter((s) => s.status !== 'dead').length,
      unloads: this.unloads,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.idleTimer.disarm();
    const error = new EngineUnavailableError(`${this.name} engine has been shut down`);
    for (const job of this.queue.splice(0)) job.reject(error);
    const terminations: Promise<number>[] = [];
    for (const slot of this.slots.splice(0)) {
      if (slot.timer) clearTimeout(slot.timer);
      if (slot.job) slot.job.reject(error);
      slot.job = undefined;
      slot.status = 'dead';
      slot.worker.removeAllListeners();
      slot.worker.on('error', () => undefined);
      terminations.push(slot.worker.terminate());
    }
    await Promise.allSettled(terminations);
  }

  /** Counts down to the idle unload once nothing waits, runs or loads and a worker is ready. */
  private armIdleTimer(): void {
    if (this.closed || this.queue.length > 0) return;
    const live = this.slots.filter((s) => s.status !== 'dead');
    if (live.length === 0 || live.some((s) => s.status !== 'ready')) return;
    this.idleTimer.arm();
  }

  /**
   * Terminates every worker if the pool is still idle. Synchronous: the slots are gone when this
   * returns, so a job arriving afterwards starts fresh workers (while the old threads finish
   * terminating) instead of being sent to a dying one.
   */
  private unload(): void {
    if (this.closed || this.queue.length > 0) return;
    if (this.slots.some((s) => s.status === 'busy' || s.status === 'starting')) return;
    if (this.slots.length === 0) return;
    for (const slot of this.slots.splice(0)) this.kill(slot);
    this.unloads++;
  }

  private ensureStarted(): void {
    for (let i = this.slots.length - 1; i >= 0; i--) {
      if (this.slots[i]?.status === 'dead') this.slots.splice(i, 1);
    }
    while (this.slots.length < this.opts.concurrency) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const resolved = resolveWorkerEntry(this.workerUrl);
    const worker = new Worker(resolved.entry, {
      eval: resolved.eval,
      workerData: this.workerData,
      resourceLimits: this.resourceLimits,
    });
    let markStarted: () => void = () => undefined;
    let markFailed: (e: AiEngineError) => void = () => undefined;
    const started = new Promise<void>((resolve, reject) => {
      markStarted = resolve;
      markFailed = reject;
    });
    // Avoid unhandled rejections when nobody awaits warmUp().
    started.catch(() => undefined);
    const slot: Slot = { worker, status: 'starting', job: undefined, timer: undefined, started };

    slot.timer = setTimeout(() => {
      const error = new TimeoutError(`${this.name} engine did not load within ${this.opts.startTimeoutMs} ms`);
      this.failStart(slot, error);
      markFailed(error);
    }, this.opts.startTimeoutMs);

    worker.on('message', (msg: WorkerToMain) => {
      if (msg.type === 'ready') {
        if (slot.status !== 'starting') return;
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = undefined;
        slot.status = 'ready';
        this.lastStartError = undefined;
        markStarted();
        this.pump();
        this.refreshRef(slot);
        this.armIdleTimer();
      } else if (msg.type === 'start-error') {
        const error = errorFromCode(msg.error);
        this.failStart(slot, error);
        markFailed(error);
      } else if (msg.type === 'result') {
        const job = slot.job;
        if (!job || job.id !== msg.id) return;
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = undefined;
        slot.job = undefined;
        slot.status = 'ready';
        if (msg.ok) job.resolve(msg.value);
        else job.reject(errorFromCode(msg.error));
        this.pump();
        this.refreshRef(slot);
        this.armIdleTimer();
      }
    });

    const onDeath = (reason: string): void => {
      if (slot.status === 'dead') return;
      if (slot.status === 'starting') {
        const error = new EngineFailedError(`${this.name} worker failed to start: ${reason}`);
        this.failStart(slot, error);
        markFailed(error);
        return;
      }
      const job = slot.job;
      this.kill(slot);
      if (job) job.reject(new EngineFailedError(`${this.name} worker crashed: ${reason}`));
      this.restart();
    };
    worker.on('error', (err: Error) => onDeath(err.message));
    worker.on('messageerror', (err: Error) => onDeath(`message could not be deserialized: ${err.message}`));
    worker.on('exit', (code) => onDeath(`exited with code ${code}`));
    return slot;
  }

  private failStart(slot: Slot, error: AiEngineError): void {
    this.lastStartError = error;
    this.kill(slot);
    // Nothing can run if no worker is alive: fail the waiting jobs now instead of letting
    // them wait for their timeout. The next run()/warmUp() tries to start again.
    if (!this.slots.some((s) => s.status !== 'dead')) {
      for (const job of this.queue.splice(0)) job.reject(error);
    }
  }

  private kill(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.status = 'dead';
    slot.job = undefined;
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => undefined);
    void slot.worker.terminate();
  }

  private restart(): void {
    if (this.closed) return;
    this.ensureStarted();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.status !== 'ready') continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.status = 'busy';
      slot.job = job;
      slot.worker.ref();
      slot.timer = setTimeout(() => {
        this.kill(slot);
        job.reject(
          new TimeoutError(`${this.name} did not finish within ${job.timeoutMs} ms; the worker was restarted`),
        );
        this.restart();
      }, job.timeoutMs);
      const msg: MainToWorker = { type: 'job', id: job.id, payload: job.payload };
      try {
        slot.worker.postMessage(msg, job.transfer);
      } catch (error) {
        clearTimeout(slot.timer);
        slot.timer = undefined;
        slot.job = undefined;
        slot.status = 'ready';
        job.reject(
          new EngineFailedError(`${this.name}: could not send the job to the worker: ${(error as Error).message}`),
        );
      }
    }
  }

  /** An idle ready worker does not keep the process alive; a busy or starting one does. */
  private refreshRef(slot: Slot): void {
    if (slot.status === 'ready' && this.queue.length === 0) slot.worker.unref();
    else slot.worker.ref();
  }
}

function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1000) return `${Math.round(ms / 100) / 10} s`;
  return `${ms} ms`;
}

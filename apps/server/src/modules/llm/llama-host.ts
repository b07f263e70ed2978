/**
 * Runs uploaded GGUF models in a child process (`llama.child.ts`) and keeps it in bounds (docs/PRODUCT.md#ai-models):
 * one model loaded at a time (asking for another stops the first), one request at a time (the others wait in
 * order), a memory limit (the child's resident set, read from /proc; above it the child is stopped), a time limit per
 * request (then it is cancelled, and stopped if it does not stop), cancel through the caller's signal, and unloading
 * after `idleUnloadMs` without requests. Failures are AppErrors the routes turn into 503 or 504 JSON errors.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AppError } from '../../errors';
import type { FromModel, ToModel } from './llama-protocol';

export interface LlamaHostOptions {
  memoryBytes: number;
  timeoutMs: number;
  /** 0: never unload. */
  idleUnloadMs: number;
  threads: number;
  contextSize?: number;
  log?: { warn: (details: object, message: string) => void };
}

export interface GenerateInput {
  system: string;
  prompt: string;
  signal: AbortSignal;
  maxTokens: number;
}

interface Loaded {
  child: ChildProcess;
  path: string;
  /** Why the child ended, when the host ended it. */
  stopReason?: AppError;
  exited: Promise<void>;
}

const MEMORY_POLL_MS = 200;
const CANCEL_GRACE_MS = 5_000;

/** How to start the child: its .ts source through tsx when running from source, the built .js beside the bundle. */
function childEntry(): { file: string; execArgv: string[] } {
  const source = fileURLToPath(new URL('./llama.child.ts', import.meta.url));
  if (existsSync(source)) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    return { file: source, execArgv: ['--import', tsx] };
  }
  const built = fileURLToPath(new URL('./llama.child.js', import.meta.url));
  if (existsSync(built)) return { file: built, execArgv: [] };
  throw new AppError('SERVICE_UNAVAILABLE', `The model runner is missing (${built}): rebuild the server.`);
}

/** The resident set of a process in bytes (Linux), or undefined where /proc is not there. */
function residentBytes(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

export function createLlamaHost(options: LlamaHostOptions) {
  let loaded: Loaded | undefined;
  let nextId = 1;
  let lane: Promise<unknown> = Promise.resolve();
  let idleTimer: NodeJS.Timeout | undefined;
  let closed = false;

  /** One request at a time, in order. */
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = lane.then(work, work);
    lane = result.catch(() => undefined);
    return result;
  }

  function stop(reason?: AppError) {
    const current = loaded;
    if (!current) return Promise.resolve();
    loaded = undefined;
    if (reason) current.stopReason = reason;
    current.child.kill('SIGKILL');
    return current.exited;
  }

  function armIdle() {
    clearTimeout(idleTimer);
    if (options.idleUnloadMs > 0) {
      idleTimer = setTimeout(() => void exclusive(() => stop()), options.idleUnloadMs);
      idleTimer.unref();
    }
  }

  async function ensureLoaded(path: string): Promise<Loaded> {
    if (closed) throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down.');
    if (loaded?.path === path && loaded.child.exitCode === null) return loaded;
    await stop();
    const entry = childEntry();
    const child = fork(entry.file, [], {
      execArgv: entry.execArgv,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const current: Loaded = { child, path, exited };
    loaded = current;
    const watchdog = setInterval(() => {
      const rss = child.pid === undefined ? undefined : residentBytes(child.pid);
      if (rss !== undefined && rss > options.memoryBytes) {
        options.log?.warn({ rss, limit: options.memoryBytes }, 'model process over its memory limit: stopped');
        void stop(
          new AppError(
            'SERVICE_UNAVAILABLE',
            `The model needed more memory than allowed (${mib(options.memoryBytes)}, AI_MODEL_MEMORY_MB) and was stopped.`,
          ),
        );
      }
    }, MEMORY_POLL_MS);
    watchdog.unref();
    void exited.then(() => {
      clearInterval(watchdog);
      if (loaded === current) loaded = undefined;
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        void stop(new AppError('TIMEOUT', 'The model took too long to load.'));
      }, options.timeoutMs);
      const onMessage = (message: FromModel) => {
        if (message.type === 'loaded') done(() => resolve());
        if (message.type === 'load-failed')
          done(() => {
            void stop();
            reject(new AppError('SERVICE_UNAVAILABLE', `The model could not be loaded: ${message.message}`));
          });
      };
      const onExit = () =>
        done(() =>
          reject(
            current.stopReason ??
              new AppError('SERVICE_UNAVAILABLE', `The model process stopped while loading. ${stderr.trim()}`.trim()),
          ),
        );
      const done = (then: () => void) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        then();
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      const load: ToModel = {
        type: 'load',
        path,
        threads: options.threads,
        contextSize: options.contextSize ?? 4096,
      };
      child.send(load);
    });
    return current;
  }

  /**
   * Sends one request and feeds what comes back to `onMessage` until `done` or `failed`; cancels on the signal or
   * the time limit (the child is stopped if it does not end the request soon after).
   */
  async function request(
    path: string,
    build: (id: number) => ToModel,
    onMessage: (message: FromModel) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    return exclusive(async () => {
      clearTimeout(idleTimer);
      try {
        signal?.throwIfAborted();
        const current = await ensureLoaded(path);
        const id = nextId++;
        await new Promise<void>((resolve, reject) => {
          let grace: NodeJS.Timeout | undefined;
          const cancel = (reason?: AppError) => {
            if (current.child.connected) current.child.send({ type: 'cancel', id } satisfies ToModel);
            grace ??= setTimeout(() => void stop(reason), CANCEL_GRACE_MS);
            if (reason) finish(() => reject(reason));
          };
          const timer = setTimeout(
            () => cancel(new AppError('TIMEOUT', 'The model took too long to answer (AI_LLM_TIMEOUT_SECONDS).')),
            options.timeoutMs,
          );
          const onAbort = () => cancel();
          const listener = (message: FromModel) => {
            if (!('id' in message) || message.id !== id) return;
            if (message.type === 'done') finish(() => resolve());
            else if (message.type === 'failed')
              finish(() => reject(new AppError('SERVICE_UNAVAILABLE', `The model failed: ${message.message}`)));
            else onMessage(message);
          };
          const onExit = () =>
            finish(() =>
              reject(current.stopReason ?? new AppError('SERVICE_UNAVAILABLE', 'The model process stopped.')),
            );
          let finished = false;
          const finish = (then: () => void) => {
            if (finished) return;
            finished = true;
            clearTimeout(timer);
            clearTimeout(grace);
            signal?.removeEventListener('abort', onAbort);
            current.child.off('message', listener);
            current.child.off('exit', onExit);
            then();
          };
          signal?.addEventListener('abort', onAbort, { once: true });
          current.child.on('message', listener);
          current.child.once('exit', onExit);
          current.child.send(build(id));
        });
      } finally {
        armIdle();
      }
    });
  }

  return {
    /** Streams the model's answer; ends early (without error) when `signal` aborts. */
    async *generate(path: string, input: GenerateInput): AsyncIterable<string> {
      const chunks: string[] = [];
      let wake: (() => void) | undefined;
      let ended = false;
      let failure: unknown;
      // Also cancelled when the caller stops reading early.
      const stopper = new AbortController();
      const signal = AbortSignal.any([input.signal, stopper.signal]);
      const finished = request(
        path,
        (id) => ({ type: 'generate', id, system: input.system, prompt: input.prompt, maxTokens: input.maxTokens }),
        (message) => {
          if (message.type === 'chunk') {
            chunks.push(message.text);
            wake?.();
          }
        },
        signal,
      ).then(
        () => undefined,
        (error: unknown) => {
          failure = error;
        },
      );
      void finished.then(() => {
        ended = true;
        wake?.();
      });
      try {
        while (!signal.aborted) {
          const text = chunks.shift();
          if (text !== undefined) {
            yield text;
            continue;
          }
          if (ended) break;
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
        if (failure && !signal.aborted) throw failure;
      } finally {
        if (!ended) stopper.abort();
      }
    },
    /** One vector per text. */
    async embed(path: string, texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
      let vectors: number[][] = [];
      await request(
        path,
        (id) => ({ type: 'embed', id, texts }),
        (message) => {
          if (message.type === 'vectors') vectors = message.vectors;
        },
        signal,
      );
      signal?.throwIfAborted();
      return vectors.map((vector) => Float32Array.from(vector));
    },
    /** Whether a model is loaded now (for tests and the settings screen). */
    loadedPath: () => loaded?.path ?? null,
    /** Stops the model process (if it runs `path`, or any when not given). */
    unload: (path?: string) =>
      exclusive(() => (path === undefined || loaded?.path === path ? stop() : Promise.resolve())),
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      await stop();
    },
  };
}

export type LlamaHost = ReturnType<typeof createLlamaHost>;

/**
 * The process host: a small child process that starts the programs the engines and thumbnails run (tesseract,
 * pdftotext, ffmpeg, pdftoppm) on the server's behalf.
 *
 * Why: starting a program forks the process that starts it, and a fork copies the page tables of the whole process
 * while it holds the memory map — tens to hundreds of milliseconds for a server holding ~800 MB of AI models, during
 * which its main thread (and every thread touching new memory) waits (docs/BENCHMARKS.md, background analysis). The
 * host is started while the server is still small and stays small, so a fork there costs milliseconds and stops no
 * one else. It also runs at a lower priority (nice +5, which the programs inherit), so on a busy machine requests are
 * answered before background OCR and conversions.
 *
 * `acquireProcessHost()` starts the host (one per process, shared by every app in it, counted) and makes
 * `runPipeline` use it; the last release stops it. A host that dies fails what it was running (EngineFailedError) and
 * is started again on the next pipeline.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { EngineFailedError, TimeoutError, errorFromCode, type SerializedError } from './errors.js';
import { resolveWorkerEntry } from './pool.js';
import { processHost, type PipelineOptions, type PipelineRunner, type Stage } from './system.js';

export interface HostRequest {
  id: number;
  stages: Stage[];
  input?: Uint8Array | undefined;
  timeoutMs: number;
  maxOutputBytes: number;
  label: string;
}
export type HostReply = { id: number; output: Uint8Array } | { id: number; error: SerializedError };

/** How much later than the pipeline's own time-out the server gives up on a host that does not answer. */
const HOST_GRACE_MS = 10_000;
/** The host's niceness (Linux: inherited by the programs it starts). */
const HOST_NICENESS = 5;

interface Pending {
  resolve: (output: Buffer) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

class ProcessHostClient implements PipelineRunner {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly log: (message: string) => void) {}

  start(): void {
    if (this.child) return;
    const entry = resolveWorkerEntry(new URL('./process-host.worker.ts', import.meta.url));
    const args = entry.eval
      ? ['--input-type=module', '-e', entry.entry as string]
      : [fileURLToPath(entry.entry as URL)];
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    this.child = child;
    try {
      if (child.pid !== undefined) setPriority(child.pid, HOST_NICENESS);
    } catch {
      // not allowed here: the host runs at the server's priority
    }
    child.on('message', (reply: HostReply) => this.settle(reply));
    child.on('error', (error) => this.lost(child, `could not run the process host: ${error.message}`));
    child.on('exit', (code, signal) => this.lost(child, `the process host exited (${signal ?? `status ${code}`})`));
    this.idle();
  }

  run(stages: Stage[], options: PipelineOptions): Promise<Buffer> {
    this.start();
    const child = this.child;
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.idle();
        reject(new TimeoutError(`${options.label} did not finish within ${options.timeoutMs} ms`));
      }, options.timeoutMs + HOST_GRACE_MS);
      this.pending.set(id, { resolve, reject, timer });
      child?.channel?.ref();
      const request: HostRequest = {
        id,
        stages,
        input: options.input,
        timeoutMs: options.timeoutMs,
        maxOutputBytes: options.maxOutputBytes,
        label: options.label,
      };
      child?.send(request, (error) => {
        if (error) this.fail(id, new EngineFailedError(`${options.label}: ${error.message}`));
      });
    });
  }

  stop(): void {
    const child = this.child;
    this.child = undefined;
    if (child) this.failAll(new EngineFailedError('the process host was stopped'));
    child?.disconnect();
  }

  private settle(reply: HostReply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    if ('error' in reply) this.fail(reply.id, errorFromCode(reply.error));
    else {
      this.forget(reply.id, waiting);
      waiting.resolve(Buffer.from(reply.output.buffer, reply.output.byteOffset, reply.output.byteLength));
    }
  }

  private fail(id: number, error: Error): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.forget(id, waiting);
    waiting.reject(error);
  }

  private forget(id: number, waiting: Pending): void {
    clearTimeout(waiting.timer);
    this.pending.delete(id);
    this.idle();
  }

  private failAll(error: Error): void {
    for (const id of [...this.pending.keys()]) this.fail(id, error);
  }

  /** A host that died: what it ran fails; the next pipeline starts a new one. */
  private lost(child: ChildProcess, why: string): void {
    if (this.child !== child) return;
    this.child = undefined;
    if (this.pending.size > 0) this.log(why);
    this.failAll(new EngineFailedError(why));
  }

  /** Nothing waiting on the host: it does not keep the server's process alive. */
  private idle(): void {
    if (this.pending.size > 0) return;
    this.child?.channel?.unref();
    this.child?.unref();
  }
}

let client: ProcessHostClient | undefined;
let holders = 0;

/**
 * Starts the process host (if no app in this process has yet) and routes `runPipeline` through it; the returned
 * function releases it, and the last release stops it.
 */
export function acquireProcessHost(log: (message: string) => void): () => void {
  holders += 1;
  if (!client) {
    client = new ProcessHostClient(log);
    client.start();
    processHost.use(client);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders > 0 || !client) return;
    processHost.use(undefined);
    client.stop();
    client = undefined;
  };
}

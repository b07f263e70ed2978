/**
 * Child processes and system lookups shared by the engines (no temp files: stdin/stdout pipes only).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { EngineFailedError, EngineUnavailableError, TimeoutError, TooLargeError } from './errors.js';

/** Finds an executable on PATH (or checks an explicit path). Returns undefined if missing. */
export function findExecutable(name: string): string | undefined {
  const isExecutable = (p: string): boolean => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (name.includes('/')) return isExecutable(name) ? name : undefined;
  const dirs = (process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(path.delimiter);
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Resolves a required executable or throws EngineUnavailableError naming the Debian package. */
export function requireExecutable(name: string, debianPackage: string, feature: string): string {
  const found = findExecutable(name);
  if (!found) {
    throw new EngineUnavailableError(
      `${feature} needs the Debian package ${debianPackage} (program "${name}" not found): apt-get install ${debianPackage}`,
    );
  }
  return found;
}

/** Checks that a file installed by a Debian package exists. */
export function requireFile(file: string, debianPackage: string, feature: string): string {
  if (!existsSync(file)) {
    throw new EngineUnavailableError(
      `${feature} needs the Debian package ${debianPackage} (${file} is missing): apt-get install ${debianPackage}`,
    );
  }
  return file;
}

export interface Stage {
  command: string;
  args: string[];
  /** Added to the program's environment (the rest is the server's). */
  env?: Record<string, string>;
}

export interface PipelineOptions {
  /** Written to the first stage's stdin (stdin is closed right away when omitted). */
  input?: Buffer | Uint8Array;
  /** Kill everything after this many ms. */
  timeoutMs: number;
  /** Kill everything when the last stage writes more than this. */
  maxOutputBytes: number;
  /** Used in error messages. */
  label: string;
}

/**
 * Runs `a | b | c` without a shell. Resolves with the last stage's stdout when every stage
 * exits with status 0.
 */
export function runPipeline(stages: Stage[], options: PipelineOptions): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const children: ChildProcess[] = [];
    const stderr: string[] = stages.map(() => '');
    const exits: (number | null)[] = stages.map(() => null);
    const signals: (NodeJS.Signals | null)[] = stages.map(() => null);
    let exited = 0;
    let settled = false;
    const chunks: Buffer[] = [];
    let outBytes = 0;

    const killAll = (): void => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    };
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killAll();
      reject(error);
    };
    const timer = setTimeout(
      () => fail(new TimeoutError(`${options.label} did not finish within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );

    stages.forEach((stage, i) => {
      let child: ChildProcess;
      try {
        child = spawn(stage.command, stage.args, {
          stdio: ['pipe', 'pipe', 'pipe'],
          ...(stage.env ? { env: { ...process.env, ...stage.env } } : {}),
        });
      } catch (error) {
        fail(new EngineFailedError(`${options.label}: could not start ${stage.command}: ${(error as Error).message}`));
        return;
      }
      children.push(child);
      child.on('error', (error) =>
        fail(new EngineFailedError(`${options.label}: could not run ${stage.command}: ${error.message}`)),
      );
      child.stderr?.on('data', (d: Buffer) => {
        if ((stderr[i] ?? '').length < 4000) stderr[i] = (stderr[i] ?? '') + d.toString('utf8');
      });
      // A stage that exits early closes its stdin; the writer then sees EPIPE, which is reported via exit status.
      child.stdin?.on('error', () => undefined);
      child.on('close', (code, signal) => {
        exits[i] = code;
        signals[i] = signal;
        exited++;
        if (exited === stages.length) finish();
      });
    });
    if (settled) return;

    for (let i = 0; i < children.length - 1; i++) {
      const from = children[i]?.stdout;
      const to = children[i + 1]?.stdin;
      if (from && to) from.pipe(to);
    }
    const last = children[children.length - 1];
    last?.stdout?.on('data', (d: Buffer) => {
      outBytes += d.length;
      if (outBytes > options.maxOutputBytes) {
        fail(new TooLargeError(`${options.label} produced more than ${options.maxOutputBytes} bytes`));
        return;
      }
      chunks.push(d);
    });
    const first = children[0];
    if (options.input) first?.stdin?.end(options.input);
    else first?.stdin?.end();

    function finish(): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const failed = exits.findIndex((code) => code !== 0);
      if (failed >= 0) {
        const stage = stages[failed];
        const how = signals[failed] ? `signal ${signals[failed]}` : `status ${exits[failed]}`;
        const detail = (stderr[failed] ?? '').trim().split('\n').slice(-3).join(' | ');
        reject(
          Object.assign(
            new EngineFailedError(
              `${options.label}: ${path.basename(stage?.command ?? '')} failed (${how})${detail ? `: ${detail}` : ''}`,
            ),
            { stage: failed, stderr: stderr[failed] },
          ),
        );
        return;
      }
      resolve(Buffer.concat(chunks));
    }
  });
}

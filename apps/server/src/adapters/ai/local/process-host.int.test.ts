import { getPriority } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineFailedError, TimeoutError, TooLargeError } from './errors';
import { acquireProcessHost } from './process-host';
import { runPipeline } from './system';

/** The pid of the process that started the pipeline's program (its parent). */
const starter = async () =>
  Number((await runPipeline([{ command: 'sh', args: ['-c', 'echo $PPID'] }], options)).toString().trim());
const options = { timeoutMs: 10_000, maxOutputBytes: 1 << 20, label: 'test' };

describe('process host', () => {
  const releases: (() => void)[] = [];
  const acquire = () => {
    const release = acquireProcessHost(() => undefined);
    releases.push(release);
    return release;
  };
  afterEach(() => {
    for (const release of releases.splice(0)) release();
  });

  it('runs pipelines in its own process, at a lower priority, and hands them back to this one when released', async () => {
    expect(await starter()).toBe(process.pid);
    const release = acquire();
    const host = await starter();
    expect(host).not.toBe(process.pid);
    // The same bytes through a two-stage pipeline, both ways.
    const input = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    const output = await runPipeline(
      [
        { command: 'cat', args: [] },
        { command: 'cat', args: [] },
      ],
      { ...options, input },
    );
    expect(output.equals(input)).toBe(true);
    const niceness = (await runPipeline([{ command: 'nice', args: [] }], options)).toString().trim();
    expect(Number(niceness)).toBe(Math.min(19, getPriority() + 5));
    // A second holder shares the host; the host stays until the last one lets go.
    const second = acquire();
    expect(await starter()).toBe(host);
    release();
    expect(await starter()).toBe(host);
    second();
    expect(await starter()).toBe(process.pid);
  });

  it('hands back the errors the programs cause, typed as when run here', async () => {
    acquire();
    await expect(runPipeline([{ command: 'false', args: [] }], options)).rejects.toThrow(EngineFailedError);
    await expect(runPipeline([{ command: 'sh', args: ['-c', 'echo oops >&2; exit 3'] }], options)).rejects.toThrow(
      /sh failed \(status 3\): oops/,
    );
    await expect(runPipeline([{ command: 'sleep', args: ['5'] }], { ...options, timeoutMs: 200 })).rejects.toThrow(
      TimeoutError,
    );
    await expect(
      runPipeline([{ command: 'head', args: ['-c', '100000', '/dev/zero'] }], { ...options, maxOutputBytes: 10 }),
    ).rejects.toThrow(TooLargeError);
    await expect(runPipeline([{ command: '/no/such/program', args: [] }], options)).rejects.toThrow(EngineFailedError);
  });

  it('fails what a dead host was running, then starts a new one', async () => {
    acquire();
    const host = await starter();
    const running = runPipeline([{ command: 'sleep', args: ['5'] }], options);
    process.kill(host, 'SIGKILL');
    await expect(running).rejects.toThrow(/the process host exited \(SIGKILL\)/);
    const next = await starter();
    expect(next).not.toBe(host);
    expect(next).not.toBe(process.pid);
  });
});

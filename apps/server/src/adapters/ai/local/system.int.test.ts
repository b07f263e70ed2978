import { describe, expect, it } from 'vitest';
import { EngineFailedError, TimeoutError, TooLargeError } from './errors';
import { runPipeline } from './system';

const options = { timeoutMs: 10_000, maxOutputBytes: 1 << 20, label: 'test' };

describe('runPipeline', () => {
  it('pipes bytes through every stage and answers the last one’s output', async () => {
    const input = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    const output = await runPipeline(
      [
        { command: 'cat', args: [] },
        { command: 'cat', args: [] },
      ],
      { ...options, input },
    );
    expect(output.equals(input)).toBe(true);
  });

  it('adds a stage’s environment to the server’s', async () => {
    const out = await runPipeline(
      [{ command: 'sh', args: ['-c', 'echo "$ATRIUM_TEST_VALUE:${PATH:+path}"'], env: { ATRIUM_TEST_VALUE: 'v 1' } }],
      options,
    );
    expect(out.toString().trim()).toBe('v 1:path');
  });

  it('fails typed: a program’s exit status with its last words, a time-out, too much output, a missing program', async () => {
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
});

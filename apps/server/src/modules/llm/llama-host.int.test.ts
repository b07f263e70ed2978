import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isAppError } from '../../errors';
import { tinyGguf, writeTinyGguf } from '../../../test/tiny-gguf';
import { createLlamaHost, type LlamaHost } from './llama-host';

/**
 * The uploaded-model runner (docs/PRODUCT.md#ai-models) with a real node-llama-cpp child process and a tiny GGUF the
 * test writes: loading, streaming, cancel, one model at a time, idle unload, the memory and time limits, and a file
 * llama.cpp refuses.
 */
const GIB = 1024 ** 3;

/** The value, failing the test when it is missing. */
function given<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('expected a value');
  return value;
}
let dir: string;
let modelA: string;
let modelB: string;
const hosts: LlamaHost[] = [];
const hostWith = (options: Partial<Parameters<typeof createLlamaHost>[0]> = {}) => {
  const host = createLlamaHost({ memoryBytes: 2 * GIB, timeoutMs: 60_000, idleUnloadMs: 0, threads: 1, ...options });
  hosts.push(host);
  return host;
};
const input = (signal = new AbortController().signal, maxTokens = 12) => ({
  system: 'Answer from the passages only.',
  prompt: 'When is the budget review?',
  signal,
  maxTokens,
});
async function errorOf(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}
async function collect(stream: AsyncIterable<string>) {
  const chunks: string[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'atrium-llama-'));
  modelA = path.join(dir, 'a.gguf');
  modelB = path.join(dir, 'b.gguf');
  writeTinyGguf(modelA, { name: 'tiny-a' });
  writeTinyGguf(modelB, { name: 'tiny-b' });
});
afterAll(async () => {
  await Promise.all(hosts.map((host) => host.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('llama host', () => {
  it('loads a GGUF model, streams generated text and embeds', async () => {
    const host = hostWith();
    const chunks = await collect(host.generate(modelA, input()));
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.join('').length).toBeGreaterThan(0);
    expect(host.loadedPath()).toBe(modelA);
    const vectors = await host.embed(modelA, ['budget review', 'termination clause']);
    expect(vectors).toHaveLength(2);
    expect(vectors.map((v) => v.length)).toEqual([32, 32]);
    expect(given(vectors[0]).some((value) => value !== 0)).toBe(true);
  });

  it('stops when cancelled, then answers the next request; one model is loaded at a time', async () => {
    const host = hostWith();
    const controller = new AbortController();
    const chunks: string[] = [];
    for await (const chunk of host.generate(modelA, input(controller.signal, 200))) {
      chunks.push(chunk);
      controller.abort();
    }
    expect(chunks).toHaveLength(1);
    const again = await collect(host.generate(modelA, input()));
    expect(again.length).toBeGreaterThan(0);
    // A cancelled signal before the start: nothing runs, nothing is thrown.
    const cancelled = new AbortController();
    cancelled.abort();
    expect(await collect(host.generate(modelA, input(cancelled.signal)))).toEqual([]);
    // Another model replaces the first.
    await collect(host.generate(modelB, input()));
    expect(host.loadedPath()).toBe(modelB);
  });

  it('unloads after the idle time', async () => {
    const host = hostWith({ idleUnloadMs: 50 });
    await collect(host.generate(modelA, input()));
    await vi.waitFor(() => expect(host.loadedPath()).toBeNull(), { timeout: 10_000, interval: 50 });
    // and loads again on the next request
    expect((await collect(host.generate(modelA, input()))).length).toBeGreaterThan(0);
  });

  it('stops a model over its memory limit with a 503', async () => {
    const host = hostWith({ memoryBytes: 8 * 1024 * 1024 });
    const error = await errorOf(collect(host.generate(modelA, input())));
    expect(isAppError(error) && error.code).toBe('SERVICE_UNAVAILABLE');
    expect((error as Error).message).toMatch(/more memory than allowed/);
    expect(host.loadedPath()).toBeNull();
  });

  it('gives up past its time limit with a 504', async () => {
    const host = hostWith({ timeoutMs: 1 });
    const error = await errorOf(collect(host.generate(modelA, input())));
    expect(isAppError(error) && error.code).toBe('TIMEOUT');
    expect(host.loadedPath()).toBeNull();
  });

  it('answers 503 for a file llama.cpp cannot load, and the server goes on', async () => {
    const broken = path.join(dir, 'broken.gguf');
    const bytes = tinyGguf();
    writeFileSync(broken, bytes.subarray(0, bytes.length - 4096)); // tensor data cut short
    const host = hostWith();
    const error = await errorOf(collect(host.generate(broken, input())));
    expect(isAppError(error) && error.code).toBe('SERVICE_UNAVAILABLE');
    expect((await collect(host.generate(modelA, input()))).length).toBeGreaterThan(0);
  });
});

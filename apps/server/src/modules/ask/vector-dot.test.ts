import { readFile } from 'node:fs/promises';
import wabt from 'wabt';
import { describe, expect, it } from 'vitest';
import { DOTS_WASM, DotMemory, strideOf } from './vector-dot';

/** Deterministic numbers in [-1, 1). */
function numbers(seed: number, count: number): Float32Array {
  let state = seed;
  return Float32Array.from({ length: count }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 30 - 1;
  });
}

describe('the SIMD dot products of the vector copy', () => {
  it('holds the bytes of vector-dot.wat as wabt compiles it', async () => {
    const source = await readFile(new URL('./vector-dot.wat', import.meta.url), 'utf8');
    const module = (await wabt()).parseWat('vector-dot.wat', source, { simd: true });
    module.validate();
    expect(Buffer.from(module.toBinary({}).buffer).toString('base64')).toBe(DOTS_WASM);
  });

  it.each([1, 5, 16, 100, 384, 1536])('agrees with plain arithmetic at %i dimensions', (dimensions) => {
    const stride = strideOf(dimensions);
    expect(stride % 16).toBe(0);
    expect(stride - dimensions).toBeLessThan(16);
    const memory = new DotMemory();
    const vectors = 40;
    memory.reserve(vectors * stride);
    const codes = memory.bytes;
    const values = numbers(dimensions, vectors * dimensions);
    for (let v = 0; v < vectors; v += 1)
      for (let i = 0; i < dimensions; i += 1)
        codes[v * stride + i] = Math.round((values[v * dimensions + i] ?? 0) * 127);
    const query = numbers(7 + dimensions, dimensions);
    // Out of order, one twice, some left out.
    const entries = Int32Array.from([39, 0, 17, 17, 3, 22]);
    const { sums, scale } = memory.products(vectors * stride, stride, entries, entries.length, query);
    const qNorm = Math.hypot(...query);
    entries.forEach((entry, k) => {
      let exact = 0;
      for (let i = 0; i < dimensions; i += 1) exact += (codes[entry * stride + i] ?? 0) * (query[i] ?? 0);
      // In units of the question at length 1, within the 16-bit rounding of the question.
      expect((sums[k] ?? 0) * scale).toBeCloseTo(exact / qNorm, 1);
    });
    expect(memory.products(vectors * stride, stride, entries, 0, query).sums).toHaveLength(0);
    expect(memory.products(vectors * stride, stride, entries, 2, new Float32Array(dimensions)).scale).toBe(0);
  });

  it('keeps the codes where they are when the memory grows', () => {
    const memory = new DotMemory();
    memory.reserve(32);
    memory.bytes.set([1, 2, 3], 0);
    memory.reserve(5 * 65_536);
    expect([...memory.bytes.subarray(0, 3)]).toEqual([1, 2, 3]);
    expect(memory.bytes.length).toBeGreaterThanOrEqual(5 * 65_536);
  });
});

import { describe, expect, it } from 'vitest';
import { bestFirst } from './nearest';
import {
  MEMORY_WIDENING,
  cellsFor,
  dot,
  nearestCell,
  nearestCells,
  probesFor,
  sampleFor,
  trainCells,
  unit,
} from './vector-cells';

/** A seeded generator of normally distributed numbers (mulberry32 + Box–Muller). */
function normals(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/**
 * `count` unit vectors of `dimensions` as texts' embeddings gather by subject: around `topics` random directions, each
 * topic varying along a few directions of its own (8), with a little noise in every dimension. (On noise alone, in
 * every direction at once, the nearest cells hold far fewer of the nearest vectors: docs/BENCHMARKS.md.)
 */
function topical(count: number, topics: number, dimensions: number, seed: number) {
  const normal = normals(seed);
  const direction = () => unit(Float32Array.from({ length: dimensions }, normal));
  const centres = Array.from({ length: topics }, direction);
  const ways = Array.from({ length: topics }, () => Array.from({ length: 8 }, direction));
  const near = (topic: number) => {
    const centre = centres[topic % topics] ?? new Float32Array();
    const v = Float32Array.from(centre, (x) => x + 0.01 * normal());
    for (const way of ways[topic % topics] ?? []) {
      const weight = 0.35 * normal();
      for (let i = 0; i < dimensions; i += 1) v[i] = (v[i] ?? 0) + weight * (way[i] ?? 0);
    }
    return unit(v);
  };
  return { vectors: Array.from({ length: count }, (_, i) => near(i)), near };
}

describe('the vector index arithmetic', () => {
  it('sizes: about √n cells, 1/32 of them read first (at least 8), 32 sampled vectors per cell', () => {
    expect(cellsFor(20_000)).toBe(141);
    expect(cellsFor(300_000)).toBe(548);
    expect(cellsFor(100)).toBe(16);
    expect(cellsFor(1e9)).toBe(4_096);
    expect(probesFor(141)).toBe(8);
    expect(probesFor(548)).toBe(18);
    expect(probesFor(4)).toBe(4);
    expect(sampleFor(141)).toBe(4_512);
  });

  it('unit length, dot product, nearest cells nearest first', () => {
    expect([...unit(Float32Array.from([3, 4]))]).toEqual([expect.closeTo(0.6), expect.closeTo(0.8)]);
    expect([...unit(Float32Array.from([0, 0]))]).toEqual([0, 0]);
    expect(dot(Float32Array.from([1, 2, 3, 4, 5]), Float32Array.from([5, 4, 3, 2, 1]))).toBe(35);
    const centres = [
      [1, 0],
      [0, 1],
      [-1, 0],
      [0.8, 0.6],
    ].map((c) => Float32Array.from(c));
    expect(nearestCell(unit(Float32Array.from([1, 0.1])), centres)).toBe(0);
    expect(nearestCells(Float32Array.from([10, 9]), centres, 3)).toEqual([3, 0, 1]);
  });

  // 96 dimensions rather than an embedder's 384: a quarter of the arithmetic (6 s at 384 on a busy machine of this
  // kind, past the default time-out), the same structure.
  it(
    'trains centres so that the cells compared in memory hold 19 in 20 of a question’s ten nearest',
    {
      timeout: 60_000,
    },
    async () => {
      const { vectors, near } = topical(20_000, 400, 96, 1);
      const cells = cellsFor(vectors.length);
      let pauses = 0;
      const centres = await trainCells(
        vectors.filter((_, i) => i % Math.floor(vectors.length / sampleFor(cells)) === 0),
        cells,
        async () => {
          pauses += 1;
        },
      );
      expect(centres).toHaveLength(cells);
      expect(pauses).toBeGreaterThan(6);
      const cellOf = vectors.map((v) => nearestCell(v, centres));
      // Every cell is used, none holds a tenth of the vectors.
      const sizes = new Map<number, number>();
      for (const cell of cellOf) sizes.set(cell, (sizes.get(cell) ?? 0) + 1);
      expect(Math.max(...sizes.values())).toBeLessThan(vectors.length / 10);
      /** The share of the 10 nearest vectors in the `probes` nearest cells, and of all vectors read, over 50 questions. */
      const recall = (probes: number) => {
        let found = 0;
        let read = 0;
        for (let q = 0; q < 50; q += 1) {
          const query = near(q * 7);
          const probed = new Set(nearestCells(query, centres, probes));
          const scores = Float64Array.from(vectors, (v) => dot(v, query));
          found += bestFirst(scores, 10).filter((i) => probed.has(cellOf[i] ?? -1)).length;
          read += cellOf.filter((cell) => probed.has(cell)).length;
        }
        return { recall: found / 500, read: read / 50 / vectors.length };
      };
      // In memory (8 × the cells read from the database): ~45 % of the vectors here (~26 % at 300,000).
      const memory = recall(MEMORY_WIDENING * probesFor(cells));
      expect(memory.recall).toBeGreaterThanOrEqual(0.95);
      expect(memory.read).toBeLessThan(0.5);
      const database = recall(probesFor(cells));
      expect(database.recall).toBeGreaterThanOrEqual(0.6);
      expect(database.read).toBeLessThan(0.08);
    },
  );

  it('trains on fewer vectors than cells, and on none', async () => {
    expect(await trainCells([Float32Array.from([1, 0]), Float32Array.from([0, 2])], 16)).toHaveLength(2);
    expect(await trainCells([], 16)).toEqual([]);
  });
});

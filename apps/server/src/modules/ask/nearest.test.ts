import { describe, expect, it } from 'vitest';
import { bestFirst, cosine } from './nearest';

describe('dense retrieval arithmetic', () => {
  it('cosine similarity', () => {
    expect(cosine(Float32Array.from([1, 0]), Float32Array.from([2, 0]))).toBeCloseTo(1);
    expect(cosine(Float32Array.from([1, 0]), Float32Array.from([0, 3]))).toBeCloseTo(0);
    expect(cosine(Float32Array.from([1, 1]), Float32Array.from([-1, -1]))).toBeCloseTo(-1);
    expect(cosine(Float32Array.from([0, 0]), Float32Array.from([1, 1]))).toBe(0);
  });

  it('the best few of many scores, highest first, ties by index, each prefix the same', () => {
    const scores = Float64Array.from([0.1, 0.9, 0.5, 0.9, -0.2, 0.7, 0.5]);
    expect(bestFirst(scores, 3)).toEqual([1, 3, 5]);
    expect(bestFirst(scores, 5)).toEqual([1, 3, 5, 2, 6]);
    expect(bestFirst(scores, 100)).toEqual([1, 3, 5, 2, 6, 0, 4]);
    expect(bestFirst(scores, 0)).toEqual([]);
    const many = Float64Array.from(
      { length: 10_000 },
      (_, i) => Math.sin(i * 12.9898) * 43758.5453 - Math.floor(Math.sin(i * 12.9898) * 43758.5453),
    );
    const sorted = [...many.keys()].sort((a, b) => (many[b] ?? 0) - (many[a] ?? 0) || a - b);
    expect(bestFirst(many, 250)).toEqual(sorted.slice(0, 250));
    expect(bestFirst(many, 1_000).slice(0, 250)).toEqual(bestFirst(many, 250));
    // Many ties: the earlier index first among equal scores, wherever they fall in the heap.
    const tied = Float64Array.from(many, (x) => Math.round(x * 8) / 8);
    const byTie = [...tied.keys()].sort((a, b) => (tied[b] ?? 0) - (tied[a] ?? 0) || a - b);
    for (const count of [1, 7, 1_500, 9_999, 10_000]) expect(bestFirst(tied, count)).toEqual(byTie.slice(0, count));
  });
});

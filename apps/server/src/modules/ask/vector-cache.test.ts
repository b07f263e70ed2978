import { describe, expect, it } from 'vitest';
import { VectorCache } from './vector-cache';

const v = (...xs: number[]) => Float32Array.from(xs);
const sorted = ({ ids, cosines }: { ids: ArrayLike<number>; cosines: ArrayLike<number> }) =>
  Array.from(ids, (id, i) => [id, Math.round((cosines[i] ?? 0) * 100) / 100]).sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));

describe('the copy in memory of the vectors', () => {
  it('compares a question with the vectors of the cells asked, of no cell and of retired cells', () => {
    const cache = new VectorCache();
    cache.put(1, v(1, 0), 65_536, 1);
    cache.put(2, v(0, 3), 65_537, 2);
    cache.put(3, v(-1, 0), null, 3);
    cache.put(4, v(1, 1), 7, 4);
    expect(cache.size).toBe(4);
    expect(sorted(cache.nearest(v(2, 0), [65_536], 65_536))).toEqual([
      [1, 1],
      [3, -1],
      [4, 0.71],
    ]);
    expect(sorted(cache.nearest(v(0, 1), null, 0))).toEqual([
      [1, 0],
      [2, 1],
      [3, 0],
      [4, 0.71],
    ]);
    expect([...cache.nearest(v(0, 0), null, 0).ids]).toEqual([]);
  });

  it('replaces a passage’s vector and cell by a newer change only, holding it once; grows as needed', () => {
    const cache = new VectorCache();
    cache.put(1, v(1, 0), 65_536, 5);
    cache.put(1, v(0, 1), 65_537, 6);
    expect(sorted(cache.nearest(v(0, 1), [65_536, 65_537], 0))).toEqual([[1, 1]]);
    cache.put(1, v(1, 0), 65_536, 4);
    expect(sorted(cache.nearest(v(0, 1), [65_536, 65_537], 0))).toEqual([[1, 1]]);
    expect([...cache.nearest(v(0, 1), [65_536], 0).ids]).toEqual([]);
    for (let id = 2; id <= 5_000; id += 1) cache.put(id, v(id, 1), null, id);
    expect(cache.size).toBe(5_000);
    expect(cache.nearest(v(1, 0), [], 0).ids).toHaveLength(4_999);
    expect(cache.bytes).toBeGreaterThan(5_000 * 2);
  });

  it('packs the vectors cell after cell, without the entries replaced, and goes on taking changes', () => {
    const cache = new VectorCache();
    cache.put(1, v(1, 0), 65_537, 1);
    cache.put(2, v(0, 1), 65_536, 2);
    cache.put(1, v(1, 1), 65_536, 3);
    cache.put(3, v(-1, 0), null, 4);
    const packed = cache.packed();
    expect(packed.size).toBe(3);
    const all = (c: VectorCache) => sorted(c.nearest(v(1, 0), null, 0));
    expect(all(packed)).toEqual(all(cache));
    expect(all(packed)).toEqual([
      [1, 0.71],
      [2, 0],
      [3, -1],
    ]);
    expect([...packed.nearest(v(1, 0), [65_537], 0).ids]).toEqual([3]);
    packed.put(2, v(1, 0), 65_537, 5);
    packed.put(4, v(1, 0), 65_537, 6);
    expect(sorted(packed.nearest(v(1, 0), [65_537], 0))).toEqual([
      [2, 1],
      [3, -1],
      [4, 1],
    ]);
    expect(packed.size).toBe(4);
  });
});

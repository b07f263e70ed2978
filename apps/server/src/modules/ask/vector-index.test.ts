import { describe, expect, it } from 'vitest';
import { createVectorIndex } from './vector-index';
import type { StoredVector, VectorIndexRepository } from './vector-index.repository';

const v = (...xs: number[]) => Float32Array.from(xs);
const stored: StoredVector[] = [
  { passageId: 1, vector: v(1, 0), cell: null, seq: 1 },
  { passageId: 2, vector: v(0, 1), cell: null, seq: 2 },
];

/** A stand-in for the database's side of the index (no training: every vector is read), failing where asked. */
function repository(fail: { load?: boolean; changes?: boolean }) {
  const calls = { vectorsAfter: 0, changedSince: 0, vectors: 0 };
  const repo = {
    generations: async () => [],
    centres: async () => [],
    lastSeq: async () => 2,
    vectors: async () => {
      calls.vectors += 1;
      return stored;
    },
    vectorsAfter: async (_label: string, after: number) => {
      calls.vectorsAfter += 1;
      if (fail.load) throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
      return stored.filter((row) => row.passageId > after);
    },
    changedSince: async () => {
      calls.changedSince += 1;
      if (fail.changes) throw new Error('Connection terminated unexpectedly');
      return [];
    },
  } as unknown as VectorIndexRepository;
  return { repo, calls };
}

describe('the vector index when its copy in memory cannot follow', () => {
  const logged: string[] = [];
  const log = { info: (_details: object, message: string) => logged.push(message) };

  it('answers from the copy when reading its changes fails, and reads them again at the next question', async () => {
    const { repo, calls } = repository({ changes: true });
    const index = createVectorIndex(repo, log);
    await index.warm('m');
    for (let question = 0; question < 2; question += 1) {
      const found = await index.candidates('m', v(1, 0), {}, 1);
      expect([...found.ids].sort()).toEqual([1, 2]);
    }
    expect(calls.changedSince).toBeGreaterThanOrEqual(2);
    expect(calls.vectors).toBe(0);
    expect(logged).toContain('could not read the changes of Ask’s vectors');
  });

  it('reads from the database when the copy cannot be loaded, and does not try again at every question', async () => {
    const { repo, calls } = repository({ load: true });
    const index = createVectorIndex(repo, log);
    await index.warm('m');
    for (let question = 0; question < 3; question += 1) {
      const found = await index.candidates('m', v(1, 0), {}, 1);
      expect([...found.ids].sort()).toEqual([1, 2]);
    }
    expect(calls.vectorsAfter).toBe(1);
    expect(calls.vectors).toBe(3);
    expect(logged).toContain('could not load the vectors of Ask into memory');
  });
});

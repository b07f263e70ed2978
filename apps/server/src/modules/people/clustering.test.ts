import { describe, expect, it } from 'vitest';
import { clusterIncrementally, descriptorDistance, nearestPerson, pairwiseScores } from './clustering';

/** A 128-number descriptor: `base` with `offset` added to its first number. */
const descriptor = (base: number, offset = 0) =>
  Array.from({ length: 128 }, (_, i) => (i === 0 ? base + offset : base));

describe('face clustering', () => {
  it('measures Euclidean distance and refuses descriptors of different lengths', () => {
    expect(descriptorDistance([0, 3], [4, 0])).toBe(5);
    expect(() => descriptorDistance([1], [1, 2])).toThrow(/different lengths/);
  });

  it('joins the nearest person within the threshold, or none', () => {
    const placed = [
      { personId: 'a', descriptor: descriptor(0) },
      { personId: 'b', descriptor: descriptor(0, 0.3) },
    ];
    expect(nearestPerson(descriptor(0, 0.2), placed, 0.5)).toBe('b'); // 0.1 from b, 0.2 from a
    expect(nearestPerson(descriptor(0, 0.05), placed, 0.5)).toBe('a');
    expect(nearestPerson(descriptor(0, 1), placed, 0.5)).toBeUndefined();
    expect(nearestPerson(descriptor(0, 0.5), [{ personId: 'a', descriptor: descriptor(0) }], 0.5)).toBeUndefined();
  });

  it('clusters faces as they arrive: close faces share a person, far ones start new people', () => {
    let next = 0;
    const people = clusterIncrementally(
      [descriptor(0), descriptor(1), descriptor(0, 0.2), descriptor(1, -0.3), descriptor(0, 0.4), descriptor(5)],
      [],
      () => `p${(next += 1)}`,
      0.5,
    );
    expect(people).toEqual(['p1', 'p2', 'p1', 'p2', 'p1', 'p3']);
    // Single link: 0.4 is 0.2 from the second face of p1 though 0.4 from its first.
    expect(pairwiseScores(['x', 'y', 'x', 'y', 'x', 'z'], people)).toEqual({ precision: 1, recall: 1 });
  });

  it('scores a clustering by pairs', () => {
    // Truth: a a b b; all in one cluster: 2 of 6 pairs right, every true pair found.
    expect(pairwiseScores(['a', 'a', 'b', 'b'], ['1', '1', '1', '1'])).toEqual({ precision: 2 / 6, recall: 1 });
    // Each alone: nothing put together (precision 1 by convention), no true pair found.
    expect(pairwiseScores(['a', 'a', 'b'], ['1', '2', '3'])).toEqual({ precision: 1, recall: 0 });
  });
});

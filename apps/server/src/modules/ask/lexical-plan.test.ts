import { describe, expect, it } from 'vitest';
import { candidatesFor, MAX_CANDIDATES, subsets, varints } from './lexical-plan';

describe('tiers of groups', () => {
  it('lists every way of holding k of n groups, or none when there are too many', () => {
    expect(subsets(['a', 'b', 'c'], 3, 10)).toEqual([['a', 'b', 'c']]);
    expect(subsets(['a', 'b', 'c'], 2, 10)).toEqual([
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'c'],
    ]);
    expect(subsets(['a', 'b', 'c', 'd', 'e'], 3, 10)).toHaveLength(10);
    expect(subsets(['a', 'b', 'c', 'd', 'e', 'f'], 3, 10)).toBeNull();
    expect(subsets(['a'], 0, 10)).toBeNull();
  });
});

describe('how many of the best matches a ranking asks for', () => {
  it('twice the need before any match was checked', () => {
    expect(candidatesFor(50, { checked: 0, readable: 0 })).toBe(100);
  });
  it('twice the need over the share found readable so far, as if one more readable had been checked', () => {
    // A workspace of a fifth of the files: 20 of 99 readable.
    expect(candidatesFor(50, { checked: 99, readable: 19 })).toBe(500);
    expect(candidatesFor(30, { checked: 9, readable: 1 })).toBe(300);
    expect(candidatesFor(50, { checked: 100, readable: 100 })).toBe(100);
  });
  it('never more than the most ranked before the condition goes into the query', () => {
    expect(candidatesFor(50, { checked: 4_000, readable: 0 })).toBe(MAX_CANDIDATES);
    expect(candidatesFor(5_000, { checked: 0, readable: 0 })).toBe(MAX_CANDIDATES);
  });
});

describe('SQLite varints', () => {
  it('reads one-byte, multi-byte and nine-byte values', () => {
    expect(varints(Uint8Array.from([0x05, 0x81, 0x00, 0x7f]), 3)).toEqual([5, 128, 127]);
    expect(varints(Uint8Array.from([0x81, 0x00]), 5)).toEqual([128]);
    const nine = Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]);
    expect(varints(nine, 1)).toEqual([1]);
  });
});

import { describe, expect, it } from 'vitest';
import { parseRange } from './range';

describe('byte ranges', () => {
  it('reads single ranges and rejects impossible ones', () => {
    expect(parseRange(undefined, 10)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=0-4', 10)).toEqual({ kind: 'partial', range: { start: 0, end: 4 } });
    expect(parseRange('bytes=5-', 10)).toEqual({ kind: 'partial', range: { start: 5, end: 9 } });
    expect(parseRange('bytes=-3', 10)).toEqual({ kind: 'partial', range: { start: 7, end: 9 } });
    expect(parseRange('bytes=-30', 10)).toEqual({ kind: 'partial', range: { start: 0, end: 9 } });
    expect(parseRange('bytes=0-1,4-5', 10)).toEqual({ kind: 'full' });
    expect(parseRange('items=0-1', 10)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=10-', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=4-2', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=x-y', 10)).toEqual({ kind: 'unsatisfiable' });
  });
});

import { describe, expect, it } from 'vitest';
import { adaptationTextOf } from './analysers';

const words = (n: number, word = 'w') => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('adaptationTextOf (transcripts adapted to the space, docs/PRODUCT.md#transcripts)', () => {
  it('gives nothing below the minimum of words', () => {
    expect(adaptationTextOf([words(100), words(99)], { minWords: 200 })).toBeUndefined();
    expect(adaptationTextOf([], { minWords: 1 })).toBeUndefined();
  });

  it('keeps everything from the minimum up, skipping empty texts', () => {
    const text = adaptationTextOf([words(150, 'a'), null, '', '   ', undefined, words(50, 'b')], { minWords: 200 });
    expect(text?.split(/\s+/)).toHaveLength(200);
    expect(text).toContain('a0');
    expect(text).toContain('b49');
  });

  it('cuts at the cap, keeping the first (most recent) texts', () => {
    const text = adaptationTextOf([words(30, 'new'), words(30, 'old'), words(30, 'oldest')], {
      maxWords: 50,
      minWords: 10,
    });
    expect(text?.split(/\s+/)).toHaveLength(50);
    expect(text).toContain('new29');
    expect(text).toContain('old19');
    expect(text).not.toContain('old20');
    expect(text).not.toContain('oldest');
  });

  it('defaults to 20,000 words at most and 200 at least', () => {
    expect(adaptationTextOf([words(199)])).toBeUndefined();
    expect(adaptationTextOf([words(15_000), words(15_000)])?.split(/\s+/)).toHaveLength(20_000);
  });
});

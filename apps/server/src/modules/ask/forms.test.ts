import { describe, expect, it } from 'vitest';
import { subsets } from './lexical.repository';
import { isFormOf, stem } from './forms';

describe('word forms', () => {
  const formsOf = (word: string, candidates: string[]) => candidates.filter((c) => isFormOf(c, stem(word)));

  it('takes inflected forms of a stem, with a doubled last letter', () => {
    expect(formsOf('terminated', ['terminate', 'terminates', 'termination', 'terminator', 'terminal'])).toEqual([
      'terminate',
      'terminates',
      'termination',
      'terminator',
    ]);
    expect(formsOf('output', ['output', 'outputs', 'outputting', 'outputsize'])).toEqual([
      'output',
      'outputs',
      'outputting',
    ]);
    expect(formsOf('compress', ['compress', 'compressed', 'compresses', 'compression'])).toEqual([
      'compress',
      'compressed',
      'compresses',
      'compression',
    ]);
  });

  it('leaves out other words that merely start with it', () => {
    expect(formsOf('system', ['systems', 'systemd', 'systemctl'])).toEqual(['systems']);
    expect(formsOf('list', ['lists', 'listing', 'listen', 'listener'])).toEqual(['lists', 'listing']);
    expect(formsOf('part', ['parts', 'partition', 'particular', 'party'])).toEqual(['parts']);
  });
});

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

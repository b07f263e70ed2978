import { describe, expect, it } from 'vitest';
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

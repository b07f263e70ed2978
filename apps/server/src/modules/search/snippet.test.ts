import { fileKindOf, searchTerms } from '@atrium/contracts';
import { describe, expect, it } from 'vitest';
import { highlightsIn, snippetOf, SNIPPET_LENGTH } from './snippet';

describe('search terms', () => {
  it('splits at anything but letters and digits, lower-cased, without engine syntax', () => {
    expect(searchTerms('Quarterly-Report.PDF')).toEqual(['quarterly', 'report', 'pdf']);
    expect(searchTerms('"NEAR(report* OR {name}:x')).toEqual(['near', 'report', 'or', 'name', 'x']);
    expect(searchTerms('  "*()  ')).toEqual([]);
    expect(searchTerms('Café über 東京 2026')).toEqual(['café', 'über', '東京', '2026']);
    expect(searchTerms('a a a')).toEqual(['a']);
  });
});

describe('file kinds', () => {
  it('classifies content types once for filters on both sides', () => {
    expect(fileKindOf('image/png')).toBe('image');
    expect(fileKindOf('audio/mpeg')).toBe('audio');
    expect(fileKindOf('video/mp4')).toBe('video');
    expect(fileKindOf('application/pdf')).toBe('document');
    expect(fileKindOf('text/plain; charset=utf-8')).toBe('document');
    expect(fileKindOf('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('document');
    expect(fileKindOf('application/zip')).toBe('other');
  });
});

describe('snippets', () => {
  it('marks the word prefixes that matched', () => {
    expect(highlightsIn('quarterly-report.pdf', ['rep', 'pdf'])).toEqual([
      { start: 10, end: 13 },
      { start: 17, end: 20 },
    ]);
    expect(highlightsIn('prepare', ['rep'])).toEqual([]);
  });

  it('shows a name whole and cuts long content around the first match at word breaks', () => {
    expect(snippetOf('My Report.txt', ['rep'], true)).toEqual({
      snippet: 'My Report.txt',
      highlights: [{ start: 3, end: 6 }],
    });
    const text = `${'alpha beta gamma '.repeat(20)}the needle is here ${'delta epsilon '.repeat(20)}`;
    const { snippet, highlights } = snippetOf(text, ['needle']);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(SNIPPET_LENGTH + 2);
    expect(highlights).toHaveLength(1);
    const [mark] = highlights;
    expect(mark && snippet.slice(mark.start, mark.end)).toBe('needle');
    expect(snippetOf('short text', ['zzz'])).toEqual({ snippet: 'short text', highlights: [] });
  });
});

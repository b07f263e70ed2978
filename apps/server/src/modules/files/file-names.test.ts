import { describe, expect, it } from 'vitest';
import { contentDisposition, MAX_FILE_NAME_LENGTH, numberedFileName, sanitizeFileName } from './file-names';
import { parseRange } from './http-range';

describe('file names', () => {
  it('keeps only a safe label', () => {
    expect(sanitizeFileName('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(sanitizeFileName('a\u0000b\u001fc\u202e.txt')).toBe('abc.txt');
    expect(sanitizeFileName('..')).toBe('file');
    expect(sanitizeFileName('   ')).toBe('file');
    expect(sanitizeFileName(undefined)).toBe('file');
    expect(Array.from(sanitizeFileName('é'.repeat(400)))).toHaveLength(255);
  });

  it('numbers a taken name before its last extension and stays within the length limit', () => {
    expect(numberedFileName('report.pdf', 0)).toBe('report.pdf');
    expect(numberedFileName('report.pdf', 1)).toBe('report (1).pdf');
    expect(numberedFileName('archive.tar.gz', 2)).toBe('archive.tar (2).gz');
    expect(numberedFileName('.env', 1)).toBe('.env (1)');
    expect(numberedFileName('README', 3)).toBe('README (3)');
    const long = `${'é'.repeat(251)}.txt`;
    const numbered = numberedFileName(long, 12);
    expect(Array.from(numbered)).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(numbered.endsWith('é (12).txt')).toBe(true);
  });

  it('writes RFC 6266 dispositions with an ASCII fallback', () => {
    expect(contentDisposition('attachment', 'a "b";c%.txt')).toBe(
      `attachment; filename="a _b__c_.txt"; filename*=UTF-8''a%20%22b%22%3Bc%25.txt`,
    );
    expect(contentDisposition('inline', "日本's.mp4")).toBe(
      `inline; filename="__'s.mp4"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%27s.mp4`,
    );
  });
});

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

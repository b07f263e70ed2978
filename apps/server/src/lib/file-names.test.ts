import { describe, expect, it } from 'vitest';
import { MAX_FILE_NAME_LENGTH, numberedFileName, sanitizeFileName } from './file-names';

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
});

import { describe, expect, it } from 'vitest';
import { formatBytes, formatKilobytes } from './format';

describe('formatBytes', () => {
  it.each([
    [0, '0 Bytes'],
    [512, '512.00 Bytes'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1024 ** 2 * 5.25, '5.25 MB'],
    [1024 ** 3, '1.00 GB'],
    [1024 ** 4 * 2, '2.00 TB'],
    [1024 ** 5, '1024.00 TB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('treats negative and non-finite sizes as zero', () => {
    expect(formatBytes(-1)).toBe('0 Bytes');
    expect(formatBytes(Number.NaN)).toBe('0 Bytes');
  });
});

describe('formatKilobytes', () => {
  it('shows KB with two decimals', () => {
    expect(formatKilobytes(2048)).toBe('2.00 KB');
    expect(formatKilobytes(100)).toBe('0.10 KB');
  });
});

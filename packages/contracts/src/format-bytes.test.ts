import { describe, expect, it } from 'vitest';
import { formatBytes, readableSize } from './format-bytes';

describe('formatBytes', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Byte'],
    [2, '2 Bytes'],
    [512, '512 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [20 * 1000 * 1000, '19.07 MB'],
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

describe('readableSize (the stats answer, unchanged)', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1.00 Bytes'],
    [512, '512.00 Bytes'],
    [40_000, '39.06 KB'],
    [1024 ** 3, '1.00 GB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(readableSize(bytes)).toBe(text);
  });
});

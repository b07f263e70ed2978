import { describe, expect, it } from 'vitest';
import { contentDisposition } from './content-disposition';

describe('Content-Disposition', () => {
  it('writes RFC 6266 dispositions with an ASCII fallback', () => {
    expect(contentDisposition('attachment', 'a "b";c%.txt')).toBe(
      `attachment; filename="a _b__c_.txt"; filename*=UTF-8''a%20%22b%22%3Bc%25.txt`,
    );
    expect(contentDisposition('inline', "日本's.mp4")).toBe(
      `inline; filename="__'s.mp4"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%27s.mp4`,
    );
  });
});

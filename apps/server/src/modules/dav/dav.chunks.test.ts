import { describe, expect, it } from 'vitest';
import { createChunker } from './dav.chunks';

describe('multistatus chunks', () => {
  it('hands out every byte once, in order, in chunks of at most the size unless one text is larger', () => {
    const texts = Array.from({ length: 3000 }, (_, i) =>
      i % 97 === 0 ? 'é€😀<'.repeat(i % 300) : `<d:response>${'x'.repeat(i % 500)}</d:response>\n`,
    );
    texts.push('y'.repeat(10_000), '', 'z');
    const chunker = createChunker(4096);
    const chunks: Buffer[] = [];
    const copies: Buffer[] = [];
    for (const text of texts) {
      const full = chunker.write(text);
      if (full) {
        chunks.push(full);
        copies.push(Buffer.from(full));
      }
    }
    const last = chunker.rest();
    chunks.push(last);
    copies.push(Buffer.from(last));
    expect(Buffer.concat(chunks).equals(Buffer.from(texts.join('')))).toBe(true);
    // No chunk was written again after it was handed out.
    chunks.forEach((chunk, i) => expect(chunk.equals(copies[i] ?? Buffer.alloc(0))).toBe(true));
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.length).toBeGreaterThan(0);
      expect(chunk.length <= 4096 || chunk.toString().startsWith('y'.repeat(10_000))).toBe(true);
    }
  });
});

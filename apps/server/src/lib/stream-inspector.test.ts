import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { StreamInspector } from './stream-inspector';

const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
const sha256 = createHash('sha256').update(bytes).digest('hex');

describe('StreamInspector', () => {
  it('counts, hashes and keeps the head of a stream that passes through unchanged', async () => {
    const inspector = new StreamInspector(() => undefined, 100);
    const out: Buffer[] = [];
    await pipeline(Readable.from([bytes.subarray(0, 30), bytes.subarray(30)]), inspector, async (source) => {
      for await (const chunk of source) out.push(chunk as Buffer);
    });
    expect(Buffer.concat(out).equals(bytes)).toBe(true);
    expect(inspector.size).toBe(5000);
    expect(inspector.digest()).toBe(sha256);
    expect(inspector.head().equals(bytes.subarray(0, 100))).toBe(true);
  });

  it('fails the stream as soon as the check returns an error', async () => {
    const inspector = new StreamInspector((size) => (size > 1000 ? new Error('too large') : undefined), 10);
    await expect(
      pipeline(
        Readable.from([bytes.subarray(0, 600), bytes.subarray(600, 1200), bytes.subarray(1200)]),
        inspector,
        async (s) => {
          for await (const _ of s) void _;
        },
      ),
    ).rejects.toThrow('too large');
    expect(inspector.size).toBe(1200);
  });

  it('reads a file through one buffer with the same result', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inspector-'));
    try {
      const file = path.join(dir, 'f.bin');
      writeFileSync(file, bytes);
      const inspector = new StreamInspector(() => undefined, 4100);
      await inspector.inspectFile(file);
      expect([inspector.size, inspector.digest(), inspector.head().length]).toEqual([5000, sha256, 4100]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

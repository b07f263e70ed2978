import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { unzip } from '../../../test/zip';
import { createZipStream, MAX_ZIP_PATH_BYTES, shortenedSegment } from './zip-stream';

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');
const source = (text: string) => ({
  size: bytesOf(text),
  mtime: new Date('2026-11-27T12:00:00Z'),
  open: () => Promise.resolve(Readable.from([Buffer.from(text)])),
});

async function entriesOf(zip: ReturnType<typeof createZipStream>): Promise<Map<string, string>> {
  const { size, stream } = await zip.finish();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  // The size announced up front (the answer's Content-Length) is the size sent.
  expect(Buffer.concat(chunks).length).toBe(size);
  const entries = await unzip(Buffer.concat(chunks));
  return new Map([...entries].map(([name, bytes]) => [name, bytes.toString('utf8')]));
}

/** 255 characters of 4 UTF-8 bytes each: the longest folder name, 1,020 bytes. */
const longName = (tag: string) => `${tag}${'😀'.repeat(255 - Array.from(tag).length)}`;

describe('zip entry paths', () => {
  it('keeps names that fit as they are', async () => {
    const zip = createZipStream();
    const top = zip.folder('', 'Top');
    zip.file(top, 'a.txt', source('a'));
    zip.file(top, 'A.txt', source('b'));
    expect([...(await entriesOf(zip)).keys()]).toEqual(['Top/', 'Top/a.txt', 'Top/A (1).txt']);
  });

  it('announces the size it sends when the central directory passes 64 KiB', async () => {
    const zip = createZipStream();
    for (let i = 0; i < 1000; i++) zip.file('', `file number ${i} with a name of some length.txt`, source(`${i}`));
    expect((await entriesOf(zip)).size).toBe(1000);
  });

  it('shortens every segment of a tree whose paths exceed 65,535 bytes, keeping extensions and uniqueness', async () => {
    const zip = createZipStream();
    let parent = '';
    // 70 levels of 1,020-byte names: 71,470 bytes down to the deepest folder.
    for (let level = 0; level < 70; level++) parent = zip.folder(parent, longName(String(level)));
    zip.file(parent, `${'f'.repeat(250)}😀.pdf`, source('deepest'));
    // Two names alike in their first bytes (over the budget, about 920 bytes here), and a short one that fits.
    zip.file(parent, `${'😀'.repeat(240)}-one.txt`, source('one'));
    zip.file(parent, `${'😀'.repeat(240)}-two.txt`, source('two'));
    zip.file(parent, 'short.txt', source('short'));
    const entries = await entriesOf(zip);
    expect(entries.size).toBe(74);
    for (const name of entries.keys()) expect(bytesOf(name)).toBeLessThanOrEqual(MAX_ZIP_PATH_BYTES);
    const files = [...entries].filter(([name]) => !name.endsWith('/'));
    expect(files.map(([, content]) => content).sort()).toEqual(['deepest', 'one', 'short', 'two']);
    const byContent = new Map(files.map(([name, content]) => [content, name.split('/').at(-1) ?? '']));
    expect(byContent.get('deepest')).toBe(`${'f'.repeat(250)}😀.pdf`);
    expect(byContent.get('one')).toMatch(/^(😀)+\.txt$/u);
    expect(byContent.get('two')).toMatch(/^(😀)+ \(1\)\.txt$/u);
    expect(byContent.get('short')).toBe('short.txt');
    // Each folder keeps the start of its name (its level), cut at a character, never inside one.
    const deepest = [...entries.keys()].find((name) => name.endsWith('short.txt')) ?? '';
    const segments = deepest.split('/').slice(0, -1);
    expect(segments).toHaveLength(70);
    segments.forEach((segment, level) => {
      expect(segment.startsWith(String(level))).toBe(true);
      expect(segment).not.toContain('\ufffd');
    });
  });

  it('refuses (400) a tree too deep for a zip even with names cut short, before anything is streamed', async () => {
    const zip = createZipStream();
    let parent = '';
    // 2,000 levels: even at 32 bytes a name (and a slash) the deepest path is 66,000 bytes.
    for (let level = 0; level < 2000; level++) parent = zip.folder(parent, `${level}`.padEnd(40, 'x'));
    await expect(zip.finish()).rejects.toMatchObject({ code: 'BAD_REQUEST', statusCode: 400 });
  });

  it('cuts a segment to a byte budget, keeping a short extension and numbering', () => {
    expect(shortenedSegment('abcdefghij.txt', 8, 0, 'file')).toBe('abcd.txt');
    expect(shortenedSegment('abcdefghij.txt', 12, 1, 'file')).toBe('abcd (1).txt');
    expect(shortenedSegment('v1.2 release notes', 6, 0, 'folder')).toBe('v1.2 r');
    expect(shortenedSegment('😀😀😀.md', 11, 0, 'file')).toBe('😀😀.md');
    expect(shortenedSegment('😀😀😀.md', 10, 0, 'file')).toBe('😀.md');
    expect(shortenedSegment(`a.${'x'.repeat(40)}`, 8, 0, 'file')).toBe('a.xxxxxx');
    expect(shortenedSegment('.. and more', 2, 0, 'folder')).toBe('_');
  });
});

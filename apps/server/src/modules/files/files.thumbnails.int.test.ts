import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FileRecord } from '@atrium/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfWithText } from '../../../test/analysis-fixtures';
import { dialects, readError, readJson, startTestServer, type TestServer } from '../../../test/helpers';

/** A 2-second 320×240 video of ffmpeg's test pattern (coloured bars, a moving gradient), made with lavfi. */
function testVideo(): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-video-'));
  try {
    const file = path.join(dir, 'clip.mp4');
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=10'],
      ...['-pix_fmt', 'yuv420p', file],
    ]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Thumbnail files in the fs blob store. */
function thumbnailBlobs(server: TestServer): string[] {
  const root = path.join(server.dataDir, 'blobs', 'thumbnails');
  return existsSync(root) ? readdirSync(root).filter((name) => name.endsWith('.webp')) : [];
}

/**
 * PDF and video thumbnails (docs/PRODUCT.md#file-screens): poppler renders a PDF's first page, ffmpeg a video's poster
 * frame, sharp makes the 256 px WebP; new uploads get theirs in the background; new content never shows the old
 * picture.
 */
describe.each(dialects())('thumbnails of PDFs and videos (%s)', (dialect) => {
  let server: TestServer;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      env: { THUMBNAILS_IN_BACKGROUND: 'true' },
      overrides: { jobQueue: { pollMs: 50 } },
    });
    alice = await server.signInAs({ owner_key: 'alice' });
    bob = await server.signInAs({ owner_key: 'bob' });
  });
  afterAll(async () => server?.close());

  const upload = async (name: string, bytes: Uint8Array, query = '') => {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(bytes)]), name);
    return readJson<FileRecord>(
      await server.fetch(`/api/files/upload?userId=alice${query}`, {
        method: 'POST',
        headers: { cookie: alice, accept: 'application/json' },
        body,
      }),
    );
  };
  const thumbnail = (id: string, cookie = alice) => server.fetch(`/api/files/${id}/thumbnail`, { headers: { cookie } });
  const picture = async (response: Response) => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await response.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    const stats = await sharp(bytes).stats();
    return {
      width: meta.width,
      height: meta.height,
      format: meta.format,
      mean: stats.channels.map((c) => c.mean),
      stdev: stats.channels.map((c) => c.stdev),
    };
  };
  /** Waits until the background job has put a thumbnail in the blob store beside the ones there before. */
  const madeInBackground = async (before: string[]) => {
    for (let i = 0; i < 200; i += 1) {
      const added = thumbnailBlobs(server).filter((name) => !before.includes(name));
      if (added.length > 0) return added;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('no thumbnail was made in the background');
  };

  it('makes a PDF first-page thumbnail in the background, and serves it to readers only', async () => {
    const before = thumbnailBlobs(server);
    const file = await upload('report.pdf', pdfWithText('Quarterly report'));
    expect(file.contentType).toBe('application/pdf');
    // Nobody asked for it: the background job made it.
    expect(await madeInBackground(before)).toHaveLength(1);
    const thumb = await picture(await thumbnail(file.id));
    expect(thumb.format).toBe('webp');
    // A letter page (612 × 792) fits 256 px tall: 198 × 256, mostly white with dark text.
    expect([thumb.width, thumb.height]).toEqual([198, 256]);
    expect(Math.min(...thumb.mean)).toBeGreaterThan(200);
    // The same access as downloading the file: someone else gets the 404 of an unknown file.
    const other = await thumbnail(file.id, bob);
    expect(other.status).toBe(404);
    expect((await readError(other)).code).toBe('FILE_NOT_FOUND');
    expect((await server.fetch(`/api/files/${file.id}/thumbnail`)).status).toBe(401);
  });

  it('makes a video poster-frame thumbnail', async () => {
    const file = await upload('clip.mp4', testVideo());
    expect(file.contentType).toBe('video/mp4');
    const thumb = await picture(await thumbnail(file.id));
    expect([thumb.width, thumb.height]).toEqual([256, 192]);
    // The test pattern's colour bars, not a black or blank frame.
    expect(Math.max(...thumb.mean)).toBeGreaterThan(40);
    expect(Math.max(...thumb.stdev)).toBeGreaterThan(30);
  });

  it('answers 415 for a PDF it cannot read, and 404 for a type without thumbnails', async () => {
    const broken = await upload('broken.pdf', Buffer.from('%PDF-1.4\nthis is not really a PDF\n%%EOF\n'));
    expect(broken.contentType).toBe('application/pdf');
    const refused = await thumbnail(broken.id);
    expect(refused.status).toBe(415);
    expect((await readError(refused)).message).toBe('Could not make a thumbnail of this file.');
    const text = await upload('notes.txt', Buffer.from('plain words'));
    const none = await thumbnail(text.id);
    expect(none.status).toBe(404);
    expect((await readError(none)).message).toBe('There is no thumbnail for this kind of file.');
  });

  it('shows the new content’s thumbnail after a replace, never the old one', async () => {
    const red = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const blue = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#0000ff' } })
      .png()
      .toBuffer();
    const first = await upload('swatch.png', red);
    const old = await picture(await thumbnail(first.id));
    expect([old.width, old.height]).toEqual([256, 256]);
    expect(old.mean[0]).toBeGreaterThan(200);
    const etag = (await thumbnail(first.id)).headers.get('etag') ?? '';
    const second = await upload('swatch.png', blue, '&onConflict=replace');
    expect(second.id).toBe(first.id);
    const fresh = await thumbnail(first.id, alice);
    // The browser's copy of the old picture is not current any more.
    expect(fresh.headers.get('etag')).not.toBe(etag);
    const now = await picture(fresh);
    expect([now.width, now.height]).toEqual([256, 128]);
    expect(now.mean[2]).toBeGreaterThan(200);
    expect(now.mean[0]).toBeLessThan(50);
    const revalidated = await server.fetch(`/api/files/${first.id}/thumbnail`, {
      headers: { cookie: alice, 'if-none-match': etag },
    });
    expect(revalidated.status).toBe(200);
  });
});

import type { FileRecord } from '@atrium/contracts';
import { describe, expect, it } from 'vitest';
import { pdfWithText } from '../../../test/analysis-fixtures';
import { readError, readJson } from '../../../test/helpers';
import { serverWithoutPackages } from '../../../test/without-packages';

/**
 * A machine without poppler-utils and ffmpeg: a PDF's or a video's thumbnail is the 404 of a kind of file without
 * one (the grid shows its icon), never a 5xx. (This file runs in its own process, so changing PATH affects no other
 * suite.)
 */
describe('thumbnails without their Debian packages', () => {
  const ctx = serverWithoutPackages({ THUMBNAILS_IN_BACKGROUND: 'true' });

  const upload = async (name: string, bytes: Buffer) => {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(bytes)]), name);
    return readJson<FileRecord>(
      await ctx.server.fetch('/api/files/upload?userId=alice', {
        method: 'POST',
        headers: { cookie: ctx.cookie, accept: 'application/json' },
        body,
      }),
    );
  };

  it('answers 404 "There is no thumbnail…" for a PDF and a video', async () => {
    // An MP4's first box is enough for the sniffed type; with no ffmpeg nothing reads further.
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(64, 1)]);
    for (const file of [await upload('report.pdf', pdfWithText('hello')), await upload('clip.mp4', mp4)]) {
      expect(['application/pdf', 'video/mp4']).toContain(file.contentType);
      const response = await ctx.server.fetch(`/api/files/${file.id}/thumbnail`, { headers: { cookie: ctx.cookie } });
      expect(response.status).toBe(404);
      expect((await readError(response)).message).toBe('There is no thumbnail for this kind of file.');
    }
  });
});

import { FileInsights, type FileRecord } from '@atrium/contracts';
import { describe, expect, it } from 'vitest';
import { makeWav } from '../../../test/fake-ai';
import { readJson } from '../../../test/helpers';
import { serverWithoutPackages } from '../../../test/without-packages';
import { pdfWithText } from '../../../test/analysis-fixtures';

/**
 * A machine without poppler-utils and ffmpeg: the analysis of a PDF or a recording records `unsupported`, naming the
 * Debian package; nothing crashes. (This file runs in its own process, so changing PATH affects no other suite.)
 */
describe('background analysis without its Debian packages', () => {
  const ctx = serverWithoutPackages({ ANALYSIS_ENABLED: 'true' });

  async function analysed(name: string, bytes: Buffer): Promise<FileInsights> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const file = await readJson<FileRecord>(
      await ctx.server.fetch('/api/files/upload?userId=alice', {
        method: 'POST',
        headers: { cookie: ctx.cookie, accept: 'application/json' },
        body: form,
      }),
    );
    for (let i = 0; i < 300; i += 1) {
      const insights = FileInsights.parse(
        await readJson(await ctx.server.fetch(`/api/files/${file.id}/insights`, { headers: { cookie: ctx.cookie } })),
      );
      if (!['pending', 'running'].includes(insights.status)) return insights;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the analysis did not finish');
  }

  it('records `unsupported` for a PDF, naming poppler-utils', async () => {
    const insights = await analysed('report.pdf', pdfWithText('hello'));
    expect(insights.status).toBe('unsupported');
    expect(insights.error).toMatch(/poppler-utils/);
  });

  it('records `unsupported` for a recording, naming ffmpeg', async () => {
    const insights = await analysed('note.wav', makeWav(1));
    expect(insights.status).toBe('unsupported');
    expect(insights.error).toMatch(/Debian package ffmpeg/);
  });
});

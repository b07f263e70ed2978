import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileInsights, type FileRecord } from '@atrium/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, readJson, startTestServer, type TestServer } from '../../../test/helpers';

/** A PNG with `text` drawn in black on white (sharp renders the SVG with the system's fonts). */
export async function pngWithText(text: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="220">
    <rect width="100%" height="100%" fill="white"/>
    <text x="40" y="140" font-family="DejaVu Sans" font-size="96" fill="black">${text}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A one-page PDF whose text is `text` (Helvetica), with a correct cross-reference table. */
export function pdfWithText(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(dialects())('background analysis and GET /api/files/{id}/insights (%s)', (dialect) => {
  let server: TestServer;
  let owner: string;
  let stranger: string;
  let work: string;
  const searchable = new Map<string, string>();
  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'atrium-analysis-'));
    server = await startTestServer({
      dialect,
      env: { ANALYSIS_ENABLED: 'true' },
      overrides: { analysis: { onAnalysed: (fileId, text) => void searchable.set(fileId, text) } },
    });
    owner = await server.signInAs({ owner_key: 'insights-owner' });
    stranger = await server.signInAs({ owner_key: 'insights-stranger' });
  });
  afterAll(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function upload(name: string, bytes: Buffer): Promise<FileRecord> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const response = await server.fetch('/api/files/upload?userId=insights-owner', {
      method: 'POST',
      headers: { cookie: owner, accept: 'application/json' },
      body: form,
    });
    return readJson<FileRecord>(response);
  }
  const insightsOf = async (id: string, cookie = owner) =>
    server.fetch(`/api/files/${id}/insights`, { headers: { cookie } });
  async function settled(id: string, timeoutMs = 150_000): Promise<FileInsights> {
    const deadline = Date.now() + timeoutMs;
    const seen = new Set<string>();
    while (Date.now() < deadline) {
      const insights = FileInsights.parse(await readJson(await insightsOf(id)));
      seen.add(insights.status);
      if (!['pending', 'running'].includes(insights.status)) return insights;
      await sleep(100);
    }
    throw new Error(`analysis of ${id} did not finish (saw ${[...seen].join(', ')})`);
  }

  it('reads the text in an image (OCR), with the file’s read access only', { timeout: 200_000 }, async () => {
    const file = await upload('sign.png', await pngWithText('Lighthouse 42'));
    const hidden = await insightsOf(file.id, stranger);
    expect(hidden.status).toBe(404);
    expect((await readError(hidden)).code).toBe('FILE_NOT_FOUND');
    const insights = await settled(file.id);
    expect(insights.status).toBe('done');
    expect(insights.text?.toLowerCase()).toContain('lighthouse');
    expect(insights.engine).toMatch(/tesseract/);
    expect(insights.analysedAt).toEqual(expect.any(String));
    expect(searchable.get(file.id)?.toLowerCase()).toContain('lighthouse');
  });

  it('reads a PDF’s text', { timeout: 60_000 }, async () => {
    const file = await upload('report.pdf', pdfWithText('Quarterly harbour report'));
    expect(file.contentType).toBe('application/pdf');
    const insights = await settled(file.id);
    expect(insights).toMatchObject({ status: 'done', engine: 'poppler pdftotext' });
    expect(insights.text).toContain('Quarterly harbour report');
  });

  it('keeps a text file’s text', { timeout: 60_000 }, async () => {
    const file = await upload('notes.md', Buffer.from('# Notes\n\nThe *pelican* brief.\n'));
    const insights = await settled(file.id);
    expect(insights).toMatchObject({ status: 'done', text: '# Notes\n\nThe *pelican* brief.' });
  });

  it('transcribes speech with segment timestamps', { timeout: 200_000 }, async () => {
    const wav = path.join(work, 'call.wav');
    execFileSync('flite', ['-voice', 'slt', '-t', 'please call me tomorrow morning', '-o', wav]);
    const file = await upload('call.wav', readFileSync(wav));
    const insights = await settled(file.id);
    expect(insights.status).toBe('done');
    expect(insights.transcript?.text.toLowerCase()).toContain('tomorrow');
    const [segment] = insights.transcript?.segments ?? [];
    expect(segment?.start).toBeGreaterThanOrEqual(0);
    expect(segment?.end).toBeGreaterThan(segment?.start ?? 0);
  });

  it('answers `unsupported` for a type it does not analyse', async () => {
    const file = await upload('data.bin', Buffer.from([0, 1, 2, 3, 4, 5, 250, 251, 252]));
    const insights = FileInsights.parse(await readJson(await insightsOf(file.id)));
    expect(insights.status).toBe('unsupported');
    expect(insights.error).toMatch(/not analysed/);
  });

  it('answers 404 for a file that does not exist', async () => {
    const response = await insightsOf('no-such-file');
    expect(response.status).toBe(404);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileInsights, type FileRecord } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docxWithText, pdfWithText, pngWithText } from '../../../test/analysis-fixtures';
import { systemClock } from '../../lib/time';
import { reindexAll } from './analysis.service';
import { dialects, readError, readJson, startTestServer, type TestServer } from '../../../test/helpers';

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
    });
    // What analysis announces it read in each file (search makes it searchable).
    server.app.events.on('file.analysed', 'test', ({ fileId, text }) => void searchable.set(fileId, text));
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
    // The whole insights in the message: what the engines said when the text is missing.
    expect(insights.status, JSON.stringify(insights)).toBe('done');
    expect(insights.text?.toLowerCase() ?? '', JSON.stringify(insights)).toContain('lighthouse');
    expect(insights.engine).toMatch(/tesseract/);
    expect(insights.analysedAt).toEqual(expect.any(String));
    // Announced after the insights commit: the event may arrive a moment after the status reads done.
    await expect.poll(() => searchable.get(file.id)?.toLowerCase() ?? '', { timeout: 10_000 }).toContain('lighthouse');
  });

  it('reads a PDF’s text', { timeout: 60_000 }, async () => {
    const file = await upload('report.pdf', pdfWithText('Quarterly harbour report'));
    expect(file.contentType).toBe('application/pdf');
    const insights = await settled(file.id);
    expect(insights).toMatchObject({ status: 'done', engine: 'poppler pdftotext' });
    expect(insights.text).toContain('Quarterly harbour report');
  });

  it('reads a Word document’s text', { timeout: 60_000 }, async () => {
    const file = await upload('minutes.docx', await docxWithText('Minutes of the osprey committee'));
    expect(file.contentType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const insights = await settled(file.id);
    expect(insights).toMatchObject({ status: 'done', engine: 'mammoth', text: 'Minutes of the osprey committee' });
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

  // docs/PRODUCT.md#transcripts: the space's own words (here a text file of 300 words) adapt the local engine.
  it('adapts a recording’s transcript to the space’s text', { timeout: 300_000 }, async () => {
    const topic = 'the osprey committee approved the kestrel budget for the heron survey on thursday';
    const notes = Array.from({ length: 22 }, () => `${topic}.`).join('\n');
    await settled((await upload('osprey notes.txt', Buffer.from(notes))).id);
    const wav = path.join(work, 'osprey.wav');
    execFileSync('flite', ['-voice', 'slt', '-t', 'the osprey committee approved the kestrel budget', '-o', wav]);
    const file = await upload('osprey.wav', readFileSync(wav));
    const insights = await settled(file.id);
    expect(insights.status).toBe('done');
    expect(insights.engine).toMatch(/adapted to the space/);
    // The generic model alone hears "the osprey can improve the pastoral budget" (STT_ADAPTATION=off, measured).
    expect(insights.transcript?.text.toLowerCase()).toContain('osprey committee approved');
  });

  it('analyses a file stored by a resumable (tus) upload', { timeout: 60_000 }, async () => {
    const body = Buffer.from('Minutes of the albatross meeting\n');
    const b64 = (value: string) => Buffer.from(value).toString('base64');
    const created = await server.fetch('/api/files/tus', {
      method: 'POST',
      headers: {
        cookie: owner,
        'tus-resumable': '1.0.0',
        'upload-length': String(body.length),
        'upload-metadata': `filename ${b64('minutes.txt')},userId ${b64('insights-owner')}`,
        'content-type': 'application/offset+octet-stream',
      },
      body: new Uint8Array(body),
    });
    expect(created.status).toBe(201);
    const id = created.headers.get('x-atrium-file-id') ?? '';
    expect(id).not.toBe('');
    expect((await settled(id)).text).toBe('Minutes of the albatross meeting');
  });

  it('removes a file’s insights and jobs with the file', { timeout: 60_000 }, async () => {
    const file = await upload('gone.txt', Buffer.from('soon gone'));
    await settled(file.id);
    const db = server.app.database.db;
    const count = async () =>
      (await db.selectFrom('jobs').select('id').where('file_id', '=', file.id).execute()).length +
      (await db.selectFrom('file_insights').select('file_id').where('file_id', '=', file.id).execute()).length;
    expect(await count()).toBe(2);
    const deleted = await server.fetch(`/api/files/user/${file.id}`, { method: 'DELETE', headers: { cookie: owner } });
    expect(deleted.status).toBe(200);
    // In the trash the file is gone for its readers; its insights go when it is purged.
    expect((await insightsOf(file.id)).status).toBe(404);
    const purged = await server.fetch(`/api/trash/${file.id}`, { method: 'DELETE', headers: { cookie: owner } });
    expect(purged.status).toBe(200);
    expect(await count()).toBe(0);
  });

  it(
    'analyses a file again when an upload replaces its content, and when a version is restored',
    { timeout: 60_000 },
    async () => {
      const first = await upload('versioned.txt', Buffer.from('first draft'));
      expect(await settled(first.id)).toMatchObject({ status: 'done', text: 'first draft' });
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(Buffer.from('second draft'))]), 'versioned.txt');
      const replaced = await server.fetch('/api/files/upload?userId=insights-owner&onConflict=replace', {
        method: 'POST',
        headers: { cookie: owner, accept: 'application/json' },
        body: form,
      });
      expect((await readJson<FileRecord>(replaced)).id).toBe(first.id);
      const textNow = async (expected: string) => {
        const deadline = Date.now() + 30_000;
        let insights = await settled(first.id);
        while (insights.text !== expected && Date.now() < deadline) {
          await sleep(100);
          insights = await settled(first.id);
        }
        return insights.text;
      };
      expect(await textNow('second draft')).toBe('second draft');
      const { versions } = await readJson<{ versions: { id: string }[] }>(
        await server.fetch(`/api/files/${first.id}/versions`, { headers: { cookie: owner } }),
      );
      const restored = await server.fetch(`/api/files/${first.id}/versions/${versions[0]?.id}/restore`, {
        method: 'POST',
        headers: { cookie: owner },
      });
      expect(restored.status).toBe(200);
      expect(await textNow('first draft')).toBe('first draft');
    },
  );

  it('analyses every file again on reindex', { timeout: 60_000 }, async () => {
    const file = await upload('again.txt', Buffer.from('first words'));
    const before = await settled(file.id);
    await sleep(20);
    const { queued } = await reindexAll({
      db: server.app.database.db,
      dialect: server.app.database.dialect,
      clock: systemClock,
    });
    expect(queued).toBeGreaterThanOrEqual(1);
    const deadline = Date.now() + 30_000;
    let after = before;
    while (after.analysedAt === before.analysedAt && Date.now() < deadline) {
      await sleep(100);
      after = FileInsights.parse(await readJson(await insightsOf(file.id)));
    }
    expect(after.status).toBe('done');
    expect(after.analysedAt).not.toBe(before.analysedAt);
    expect(after.text).toBe('first words');
  });

  it(
    'follows a workspace’s setting: members read it, owners turn analysis off (its insights go)',
    { timeout: 60_000 },
    async () => {
      const call = (method: string, url: string, body?: unknown, cookie = owner) =>
        server.fetch(url, {
          method,
          headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const ws = await readJson<{ id: string; rootFolderId: string }>(
        await call('POST', '/api/workspaces', { name: 'Analysed' }),
      );
      expect(await readJson(await call('GET', `/api/workspaces/${ws.id}/analysis`))).toEqual({ analysis: 'on' });
      const into = async (name: string, text: string) => {
        const form = new FormData();
        form.append('file', new Blob([text]), name);
        return readJson<FileRecord>(
          await server.fetch(`/api/files/upload?folderId=${ws.rootFolderId}`, {
            method: 'POST',
            headers: { cookie: owner, accept: 'application/json' },
            body: form,
          }),
        );
      };
      const before = await into('kept.txt', 'analysed while on');
      expect((await settled(before.id)).text).toBe('analysed while on');
      // A stranger cannot read or change it; a bad value is a 400 that changes nothing.
      expect((await call('GET', `/api/workspaces/${ws.id}/analysis`, undefined, stranger)).status).toBe(404);
      expect((await call('PUT', `/api/workspaces/${ws.id}/analysis`, { analysis: 'off' }, stranger)).status).toBe(404);
      expect((await call('PUT', `/api/workspaces/${ws.id}/analysis`, { analysis: 'sometimes' })).status).toBe(400);
      expect((await settled(before.id)).status).toBe('done');

      // `no-faces` drops the faces already found (here written straight into the file's row).
      const face = { box: { left: 0, top: 0, width: 0.5, height: 0.5 }, age: 30, gender: 'male', emotion: 'neutral' };
      await server.app.database.db
        .updateTable('file_insights')
        .set({ faces: JSON.stringify([face]) })
        .where('file_id', '=', before.id)
        .execute();
      expect((await settled(before.id)).faces).toEqual([face]);
      await call('PUT', `/api/workspaces/${ws.id}/analysis`, { analysis: 'no-faces' });
      expect((await settled(before.id)).faces).toBeUndefined();
      expect((await settled(before.id)).text).toBe('analysed while on');

      expect(await readJson(await call('PUT', `/api/workspaces/${ws.id}/analysis`, { analysis: 'off' }))).toEqual({
        analysis: 'off',
      });
      expect(await settled(before.id)).toMatchObject({
        status: 'unsupported',
        error: expect.stringMatching(/turned off/),
      });
      const during = await into('skipped.txt', 'never analysed');
      expect(await settled(during.id)).toMatchObject({ status: 'unsupported' });
      const db = server.app.database.db;
      expect(
        await db.selectFrom('file_insights').select('text').where('file_id', 'in', [before.id, during.id]).execute(),
      ).toEqual([{ text: null }]);
    },
  );

  it('transcribes the audio track of a video and an Ogg/Opus recording', { timeout: 200_000 }, async () => {
    const wav = path.join(work, 'video-voice.wav');
    execFileSync('flite', ['-voice', 'slt', '-t', 'please call me tomorrow morning', '-o', wav]);
    const mp4 = path.join(work, 'call.mp4');
    const ogg = path.join(work, 'call.ogg');
    execFileSync(
      'ffmpeg',
      ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=blue:s=160x120:d=3', '-i', wav].concat([
        '-shortest',
        '-c:v',
        'mpeg4',
        '-c:a',
        'aac',
        mp4,
      ]),
    );
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', wav, '-c:a', 'libopus', ogg]);
    for (const [name, file] of [
      ['call.mp4', mp4],
      ['call.ogg', ogg],
    ] as const) {
      const stored = await upload(name, readFileSync(file));
      expect(stored.contentType).toMatch(/^(video|audio)\//);
      const insights = await settled(stored.id);
      expect(insights.status).toBe('done');
      expect(insights.transcript?.text.toLowerCase()).toContain('tomorrow');
    }
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

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readError, startTestServer, type TestServer } from '../../../../test/helpers';

const TUS = { 'tus-resumable': '1.0.0' };

// A resumable upload the server itself fails (docs/DEPLOY.md, "Monitoring"): the client gets the JSON error shape
// with a request id, and the log has an error entry with that id and the cause, not a silent 500.
describe.each(dialects())('a failing resumable upload is logged (%s)', (dialect) => {
  let server: TestServer;
  let alice: string;
  const logLines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          logLines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    server = await startTestServer({ dialect, overrides: { logger: { level: 'warn', stream } } });
    alice = await server.signInAs({ owner_key: 'alice' });
  });
  afterAll(async () => server?.close());

  it('answers 500 in the JSON error shape and logs the request id with the store error', async () => {
    const created = await server.fetch('/api/files/tus', {
      method: 'POST',
      headers: {
        ...TUS,
        cookie: alice,
        'upload-length': '5',
        'upload-metadata': `filename ${Buffer.from('notes.txt').toString('base64')}`,
      },
    });
    expect(created.status).toBe(201);
    const location = String(created.headers.get('location'));
    // The disk breaks under the upload: where the finished file's content goes is a plain file, not a folder, so
    // storing it fails (mkdir: EEXIST / ENOTDIR) when the last byte arrives.
    mkdirSync(path.join(server.dataDir, 'blobs'), { recursive: true });
    writeFileSync(path.join(server.dataDir, 'blobs', 'files'), 'not a folder');

    const patched = await server.fetch(location, {
      method: 'PATCH',
      headers: {
        ...TUS,
        cookie: alice,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: 'hello',
    });
    expect(patched.status).toBe(500);
    const error = await readError(patched);
    expect(error.code).toBe('INTERNAL');
    expect(error.requestId).toBeTruthy();
    const logged = logLines.find((line) => line.reqId === error.requestId && line.level === 50);
    expect(logged).toMatchObject({ msg: 'upload failed', statusCode: 500 });
    expect(JSON.stringify(logged?.err)).toMatch(/EEXIST|ENOTDIR/);
  });
});

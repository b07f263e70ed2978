import { randomBytes } from 'node:crypto';
import type { FileRecord } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readJson, startTestServer, type TestServer } from '../../../test/helpers';

const b64 = (value: string) => Buffer.from(value).toString('base64');
const TUS = { 'tus-resumable': '1.0.0' };

describe.each(dialects())('same-name uploads (%s)', (dialect) => {
  let server: TestServer;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    alice = await server.signInAs({ owner_key: 'alice' });
    bob = await server.signInAs({ owner_key: 'bob' });
  });
  afterAll(async () => server?.close());

  const upload = async (cookie: string, userId: string, name: string): Promise<FileRecord> => {
    const body = new FormData();
    body.append('file', new Blob([randomBytes(100)]), name);
    const response = await server.fetch(`/api/files/upload?userId=${userId}`, {
      method: 'POST',
      headers: { cookie, accept: 'application/json' },
      body,
    });
    expect(response.status).toBe(200);
    return readJson<FileRecord>(response);
  };

  const tusUpload = async (cookie: string, userId: string, name: string): Promise<FileRecord> => {
    const bytes = randomBytes(300);
    const created = await server.fetch('/api/files/tus', {
      method: 'POST',
      headers: {
        ...TUS,
        cookie,
        'upload-length': String(bytes.length),
        'upload-metadata': `filename ${b64(name)},userId ${b64(userId)}`,
      },
    });
    expect(created.status).toBe(201);
    const patch = await server.fetch(created.headers.get('location') ?? '', {
      method: 'PATCH',
      headers: { ...TUS, cookie, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: bytes,
    });
    expect(patch.status).toBe(204);
    const id = patch.headers.get('x-atrium-file-id') ?? '';
    return readJson<FileRecord>(await server.fetch(`/api/files/${id}`, { headers: { cookie } }));
  };

  const names = async (cookie: string, userId: string) =>
    (await readJson<FileRecord[]>(await server.fetch(`/api/files/user/${userId}`, { headers: { cookie } })))
      .map((file) => file.fileName)
      .sort();

  it('names a second upload of a name "name (1).ext", a third "name (2).ext", ignoring case, per owner', async () => {
    expect((await upload(alice, 'alice', 'report.pdf')).fileName).toBe('report.pdf');
    expect((await upload(alice, 'alice', 'report.pdf')).fileName).toBe('report (1).pdf');
    expect((await upload(alice, 'alice', 'REPORT.PDF')).fileName).toBe('REPORT (2).PDF');
    expect((await upload(alice, 'alice', 'notes')).fileName).toBe('notes');
    expect((await upload(alice, 'alice', 'notes')).fileName).toBe('notes (1)');
    expect((await upload(alice, 'alice', '.env')).fileName).toBe('.env');
    expect((await upload(alice, 'alice', '.env')).fileName).toBe('.env (1)');
    expect((await upload(alice, 'alice', '50%_off.txt')).fileName).toBe('50%_off.txt');
    expect((await upload(alice, 'alice', '50%_off.txt')).fileName).toBe('50%_off (1).txt');
    // Another owner's names are theirs.
    expect((await upload(bob, 'bob', 'report.pdf')).fileName).toBe('report.pdf');
    expect(await names(bob, 'bob')).toEqual(['report.pdf']);
  });

  it('gives a resumable (tus) upload the same treatment, and reuses a name freed by a delete', async () => {
    expect((await tusUpload(alice, 'alice', 'movie.mp4')).fileName).toBe('movie.mp4');
    const second = await tusUpload(alice, 'alice', 'movie.mp4');
    expect(second.fileName).toBe('movie (1).mp4');
    expect((await upload(alice, 'alice', 'movie.mp4')).fileName).toBe('movie (2).mp4');
    const removed = await server.fetch(`/api/files/user/${second.id}`, {
      method: 'DELETE',
      headers: { cookie: alice },
    });
    expect(removed.status).toBe(200);
    expect((await upload(alice, 'alice', 'movie.mp4')).fileName).toBe('movie (1).mp4');
  });

  it('never gives two simultaneous uploads of one name the same name', async () => {
    const records = await Promise.all(Array.from({ length: 6 }, () => upload(alice, 'alice', 'same.txt')));
    expect(records.map((record) => record.fileName).sort()).toEqual([
      'same (1).txt',
      'same (2).txt',
      'same (3).txt',
      'same (4).txt',
      'same (5).txt',
      'same.txt',
    ]);
    expect((await names(alice, 'alice')).filter((name) => name.startsWith('same'))).toHaveLength(6);
  });
});

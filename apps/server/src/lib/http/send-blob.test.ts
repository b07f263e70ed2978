import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../plugins/errors';
import { sendBlob, type BlobRecord } from './send-blob';

const bytes = Buffer.from('0123456789abcdefghij');
const modified = new Date('2026-11-20T10:00:00.750Z');
const opened: ({ start: number; end: number } | undefined)[] = [];
const record = (contentType: string): BlobRecord => ({
  size: bytes.length,
  etag: '"abc123"',
  lastModified: modified,
  contentType,
  fileName: 'report "final".txt',
  open: async (range) => {
    opened.push(range);
    return Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]);
  },
});

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  registerErrorHandling(app);
  app.get('/blob', (request, reply) => sendBlob(request, reply, record('text/plain')));
  app.head('/blob-head', (request, reply) => sendBlob(request, reply, record('text/plain')));
  app.get('/pdf', (request, reply) => sendBlob(request, reply, record('application/pdf'), { disposition: 'inline' }));
  await app.ready();
});
afterAll(() => app.close());

describe('sendBlob', () => {
  it('sends the whole blob with validators, an attachment disposition and a sandboxing CSP', async () => {
    const res = await app.inject({ url: '/blob' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(bytes.toString());
    expect(res.headers).toMatchObject({
      etag: '"abc123"',
      'last-modified': 'Fri, 20 Nov 2026 10:00:00 GMT',
      'accept-ranges': 'bytes',
      'content-length': '20',
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'private, no-cache',
      'x-frame-options': 'SAMEORIGIN',
    });
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="report _final_.txt"/);
    expect(res.headers['content-security-policy']).toMatch(/; sandbox$/);
  });

  it('answers one range with 206 and opens only those bytes', async () => {
    opened.length = 0;
    const res = await app.inject({ url: '/blob', headers: { range: 'bytes=5-9' } });
    expect([res.statusCode, res.body, res.headers['content-range'], res.headers['content-length']]).toEqual([
      206,
      '56789',
      'bytes 5-9/20',
      '5',
    ]);
    expect(opened).toEqual([{ start: 5, end: 9 }]);
    const suffix = await app.inject({ url: '/blob', headers: { range: 'bytes=-3' } });
    expect([suffix.statusCode, suffix.body]).toEqual([206, 'hij']);
  });

  it('answers 416 in the JSON error shape for a range outside the bytes', async () => {
    const res = await app.inject({ url: '/blob', headers: { range: 'bytes=20-30' } });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */20');
    expect(res.json()).toMatchObject({ error: { code: 'RANGE_NOT_SATISFIABLE' } });
  });

  it('ignores the range when If-Range names another version, honours it for this one', async () => {
    const stale = await app.inject({ url: '/blob', headers: { range: 'bytes=0-1', 'if-range': '"other"' } });
    expect([stale.statusCode, stale.body.length]).toEqual([200, 20]);
    const current = await app.inject({ url: '/blob', headers: { range: 'bytes=0-1', 'if-range': '"abc123"' } });
    expect([current.statusCode, current.body]).toEqual([206, '01']);
    const byDate = await app.inject({
      url: '/blob',
      headers: { range: 'bytes=0-1', 'if-range': 'Fri, 20 Nov 2026 10:00:00 GMT' },
    });
    expect(byDate.statusCode).toBe(206);
  });

  it('answers 304 to a matching If-None-Match (which wins over If-Modified-Since) and to an unchanged date', async () => {
    const byTag = await app.inject({ url: '/blob', headers: { 'if-none-match': 'W/"abc123", "x"' } });
    expect([byTag.statusCode, byTag.body]).toEqual([304, '']);
    const tagWins = await app.inject({
      url: '/blob',
      headers: { 'if-none-match': '"x"', 'if-modified-since': 'Fri, 20 Nov 2026 10:00:00 GMT' },
    });
    expect(tagWins.statusCode).toBe(200);
    const byDate = await app.inject({
      url: '/blob',
      headers: { 'if-modified-since': 'Fri, 20 Nov 2026 10:00:00 GMT' },
    });
    expect(byDate.statusCode).toBe(304);
    const older = await app.inject({ url: '/blob', headers: { 'if-modified-since': 'Fri, 20 Nov 2026 09:59:59 GMT' } });
    expect(older.statusCode).toBe(200);
  });

  it('answers HEAD with the headers and no bytes read', async () => {
    opened.length = 0;
    const res = await app.inject({ method: 'HEAD', url: '/blob-head' });
    expect([res.statusCode, res.headers['content-length'], res.body]).toEqual([200, '20', '']);
    expect(opened).toEqual([]);
  });

  it('lets PDFs be framed by the preview (no sandbox) and sends inline when asked', async () => {
    const res = await app.inject({ url: '/pdf' });
    expect(res.headers['content-security-policy']).not.toMatch(/sandbox/);
    expect(res.headers['content-disposition']).toMatch(/^inline;/);
    expect(res.headers['content-type']).toBe('application/pdf');
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dialects, rawRequest, startTestServer, type TestServer } from '../../../test/helpers';

/**
 * A multipart upload whose declared `Content-Length` cannot fit the quota or the upload limit is refused before any
 * byte of its body is sent (docs/PRODUCT.md#upload-queue): the answer arrives while the body is still unsent.
 */
describe.each(dialects())('an upload refused by its declared length (%s)', (dialect) => {
  let server: TestServer;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      env: { MAX_UPLOAD_BYTES: String(1024 * 1024), USER_QUOTA_BYTES: String(100 * 1024) },
    });
    cookie = await server.signInAs({ owner_key: 'early' });
  });
  afterAll(async () => server?.close());

  /** The head of a multipart upload declaring `length` bytes; no body is written. */
  const headOnly = (length: number) =>
    rawRequest(
      server,
      `POST /api/files/upload HTTP/1.1\nCookie: ${cookie}\nAccept: application/json\n` +
        `Content-Type: multipart/form-data; boundary=xyz\nContent-Length: ${length}\n`,
    );

  it.each([
    [500 * 1024, '413', 'QUOTA_EXCEEDED'],
    [5 * 1024 * 1024, '413', 'PAYLOAD_TOO_LARGE'],
  ])('declared %i bytes: %s %s before the body', async (length, status, code) => {
    const exchange = await headOnly(length);
    try {
      await vi.waitFor(() => expect(exchange.answer()).toContain('"requestId"'), { timeout: 5000 });
      expect(exchange.answer()).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(exchange.answer()).toContain(`"code":"${code}"`);
    } finally {
      exchange.socket.destroy();
    }
  });

  it('still takes an upload that fits', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(50 * 1024)]), 'fits.bin');
    const response = await server.fetch('/api/files/upload', { method: 'POST', headers: { cookie }, body: form });
    expect(response.status).toBe(200);
  });
});

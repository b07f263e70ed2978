import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readJson, startTestServer, type TestServer } from '../../../test/helpers';
import { S3_TEST_CREDENTIALS, startS3 } from '../../../test/s3';

interface Readiness {
  status: string;
  checks: Record<string, { status: string; message?: string; latencyMs?: number }>;
}

/** A blob store that cannot be reached: its probe fails with the S3 client's error message. */
const unreachableS3 = {
  BLOB_STORE: 's3',
  S3_ENDPOINT: 'http://127.0.0.1:9',
  S3_BUCKET: 'atrium-readiness',
  S3_ACCESS_KEY_ID: 'key',
  S3_SECRET_ACCESS_KEY: 'secret',
};

describe.each(dialects())('readiness details (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: unreachableS3 });
  });
  afterAll(async () => server?.close());

  it('shows anonymous callers and non-admins only the status of each probe', async () => {
    const user = await server.signInAs({ owner_key: 'ready-user' });
    const callers: Record<string, string>[] = [{}, { cookie: user }, { cookie: 'atrium_session=not-a-session' }];
    for (const headers of callers) {
      const response = await server.fetch('/readyz', { headers });
      expect(response.status).toBe(503);
      const body = await readJson<Readiness>(response);
      expect(body.status).toBe('error');
      expect(body.checks.blobStore).toEqual({ status: 'error' });
      expect(body.checks.database).toEqual({ status: 'ok' });
      for (const check of Object.values(body.checks)) expect(Object.keys(check)).toEqual(['status']);
      expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|latency/i);
    }
  });

  it('shows a signed-in admin the messages and latencies', async () => {
    const admin = await server.signInAs({ owner_key: 'ready-admin', role: 'admin' });
    const response = await server.fetch('/readyz', { headers: { cookie: admin } });
    expect(response.status).toBe(503);
    const body = await readJson<Readiness>(response);
    expect(body.checks.blobStore?.status).toBe('error');
    expect(body.checks.blobStore?.message).toMatch(/ECONNREFUSED/);
    expect(body.checks.database).toMatchObject({ status: 'ok', latencyMs: expect.any(Number) });
  });
});

describe.each(dialects())('readiness with an S3 server that cannot list multipart uploads (%s)', (dialect) => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let server: TestServer;
  beforeAll(async () => {
    s3 = await startS3({ listUploads: false });
    server = await startTestServer({
      dialect,
      env: { BLOB_STORE: 's3', S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'atrium-no-listing', ...S3_TEST_CREDENTIALS },
    });
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it('is not ready: resumable uploads would fail, and an admin reads why', async () => {
    const anonymous = await server.fetch('/readyz');
    expect(anonymous.status).toBe(503);
    const body = await readJson<Readiness>(anonymous);
    expect(body.checks.blobStore).toEqual({ status: 'ok' });
    expect(body.checks.resumableUploads).toEqual({ status: 'error' });
    const admin = await server.signInAs({ owner_key: 'ready-admin', role: 'admin' });
    const detailed = await readJson<Readiness>(await server.fetch('/readyz', { headers: { cookie: admin } }));
    expect(detailed.checks.resumableUploads?.message).toMatch(
      /^the S3 server cannot list multipart uploads \(NotImplemented\): resumable uploads would fail/,
    );
  });
});

describe.each(dialects())('readiness with an S3 server that lists multipart uploads (%s)', (dialect) => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let server: TestServer;
  beforeAll(async () => {
    s3 = await startS3();
    server = await startTestServer({
      dialect,
      env: { BLOB_STORE: 's3', S3_ENDPOINT: s3.endpoint, S3_BUCKET: 'atrium-listing', ...S3_TEST_CREDENTIALS },
    });
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it('is ready', async () => {
    const response = await server.fetch('/readyz');
    const body = await readJson<Readiness>(response);
    expect(body.checks.resumableUploads).toEqual({ status: 'ok' });
    expect(body.checks.blobStore).toEqual({ status: 'ok' });
  });
});

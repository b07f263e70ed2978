import type { FileRecord } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, readJson, startTestServer, type TestServer } from '../../test/helpers';

const TOKEN = 'metrics-token-0123456789abcdef';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One sample's value from Prometheus's text format (`name{labels} value`), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

// What an operator graphs (docs/DEPLOY.md, "Monitoring"): uploads, downloads, sign-in failures, search, background
// jobs, stored files and live streams, as /metrics shows them after a person's ordinary use.
describe.each(dialects())('application metrics (%s)', (dialect) => {
  let server: TestServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { METRICS_TOKEN: TOKEN, ANALYSIS_ENABLED: 'true' } });
    cookie = await server.signInAs({ owner_key: 'metrics-user' });
  });
  afterAll(async () => server?.close());

  const metrics = async () =>
    (await server.fetch('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text();

  it('counts uploads, downloads, failed sign-ins, searches and job runs, and reads stored files', async () => {
    const content = 'The supplier contract ends in March.';
    const form = new FormData();
    form.append('file', new Blob([content]), 'contract.txt');
    const file = await readJson<FileRecord>(
      await server.fetch('/api/files/upload?userId=metrics-user', {
        method: 'POST',
        headers: { cookie, accept: 'application/json' },
        body: form,
      }),
    );
    const download = await server.fetch(`/api/files/download/${file.id}`, { headers: { cookie } });
    expect(download.status).toBe(200);
    await download.arrayBuffer();
    const failed = await server.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'not the password' }),
    });
    expect(failed.status).toBe(401);
    expect((await server.fetch('/api/search?q=contract', { headers: { cookie } })).status).toBe(200);

    // The text analysis of the upload runs in the background: its run is observed when it ends.
    let text = await metrics();
    const deadline = Date.now() + 30_000;
    while (!sample(text, 'atrium_job_duration_seconds_count{kind="text",outcome="done"}') && Date.now() < deadline) {
      await sleep(100);
      text = await metrics();
    }
    const bytes = Buffer.byteLength(content);
    expect(sample(text, 'atrium_uploads_total')).toBe(1);
    expect(sample(text, 'atrium_uploaded_bytes_total')).toBe(bytes);
    expect(sample(text, 'atrium_downloads_total{kind="file",status="200"}')).toBe(1);
    expect(sample(text, 'atrium_downloaded_bytes_total{kind="file"}')).toBe(bytes);
    expect(sample(text, 'atrium_sign_in_failures_total')).toBe(1);
    expect(sample(text, 'atrium_search_duration_seconds_count')).toBe(1);
    expect(sample(text, 'atrium_job_duration_seconds_count{kind="text",outcome="done"}')).toBe(1);
    expect(sample(text, 'atrium_stored_files')).toBe(1);
    expect(sample(text, 'atrium_stored_bytes')).toBe(bytes);
    expect(sample(text, 'atrium_live_streams')).toBe(0);
    // Nothing waits any more: no queued or running job of any kind.
    expect(text.split('\n').filter((row) => /^atrium_jobs\{.*state="(queued|running)"\} [1-9]/.test(row))).toEqual([]);
  });
});

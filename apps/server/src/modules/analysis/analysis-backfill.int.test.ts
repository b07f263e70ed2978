import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileInsights, type FileRecord } from '@atrium/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, dialects, readJson, startTestServer, type TestServer } from '../../../test/helpers';
import { ANALYSIS_VERSION } from './analysis.service';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Files stored before an analyser existed (an upgrade) or while analysis was off are analysed without anyone
// asking (docs/PRODUCT.md#file-insights): the `analysis.backfill` job at start, then every 6 hours.
describe.each(dialects())('analysis backfill after an upgrade (%s)', (dialect) => {
  const servers: TestServer[] = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-backfill-'));
  let database: { url: string; drop: () => Promise<void> } | undefined;
  afterAll(async () => {
    for (const server of servers.reverse()) await server.close().catch(() => undefined);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function settled(server: TestServer, cookie: string, id: string): Promise<FileInsights> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const response = await server.fetch(`/api/files/${id}/insights`, { headers: { cookie } });
      const body = await readJson(response);
      expect(response.status, JSON.stringify(body)).toBe(200);
      const insights = FileInsights.parse(body);
      if (insights.status === 'done' || Date.now() > deadline) return insights;
      await sleep(100);
    }
  }

  it('analyses files stored before, once, and again when the analysers change', { timeout: 120_000 }, async () => {
    // One data folder and database for both servers, as an upgrade in place.
    if (dialect === 'postgres') database = await createPostgresDatabase();
    const shared = { dialect, dataDir, ...(database ? { databaseUrl: database.url } : {}) };
    const before = await startTestServer({ ...shared, env: { ANALYSIS_ENABLED: 'false' } });
    servers.push(before);
    const cookie = await before.signInAs({ owner_key: 'backfill-owner' });
    const form = new FormData();
    form.append('file', new Blob(['The budget review is on monday morning.']), 'plan.txt');
    const file = await readJson<FileRecord>(
      await before.fetch('/api/files/upload?userId=backfill-owner', {
        method: 'POST',
        headers: { cookie, accept: 'application/json' },
        body: form,
      }),
    );
    await before.close();

    // The upgraded server: analysis on. Nobody asks; the start-up run of the job queues the old file.
    const after = await startTestServer({ ...shared, env: { ANALYSIS_ENABLED: 'true' } });
    servers.push(after);
    const owner = await after.signInAs({ owner_key: 'backfill-owner' });
    const first = await settled(after, owner, file.id);
    expect(first.status).toBe('done');
    expect(first.text).toContain('budget review');
    // Already analysed by these analysers: nothing more to queue.
    expect(await after.app.analysis.backfill()).toBe(0);

    // Insights made by older analysers (as after an upgrade that adds one) are made again.
    await after.app.database.db
      .updateTable('file_insights')
      .set({ model_version: 'atrium-analysis-0' })
      .where('file_id', '=', file.id)
      .execute();
    expect(await after.app.analysis.backfill()).toBe(1);
    const deadline = Date.now() + 60_000;
    let version: string | null | undefined;
    while (Date.now() < deadline) {
      version = (
        await after.app.database.db
          .selectFrom('file_insights')
          .select('model_version')
          .where('file_id', '=', file.id)
          .executeTakeFirst()
      )?.model_version;
      if (version === ANALYSIS_VERSION) break;
      await sleep(100);
    }
    expect(version).toBe(ANALYSIS_VERSION);
    expect((await settled(after, owner, file.id)).text).toContain('budget review');
  });
});

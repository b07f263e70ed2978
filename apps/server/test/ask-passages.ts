import { FileInsights, type FileRecord } from '@atrium/contracts';
import { sql } from 'kysely';
import { expectJson, readJson, sendJson, uploadFile, type TestServer } from './helpers';

/**
 * Uploads `content` as `name` (tests of Ask) and waits until analysis has read it and its passages are cut
 * (`file.analysed` → passages), so a question can find it.
 */
export async function uploadWithPassages(
  server: TestServer,
  cookie: string | undefined,
  query: string,
  name: string,
  content: string,
): Promise<FileRecord> {
  const file = await expectJson<FileRecord>(uploadFile(server, cookie, query, name, content));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const insights = FileInsights.parse(
      await readJson(await sendJson(server, cookie, 'GET', `/api/files/${file.id}/insights`)),
    );
    if (insights.status === 'done') {
      const rows = await sql<{ n: number }>`select count(*) as n from passages where file_id = ${file.id}`.execute(
        server.app.database.db,
      );
      if (Number(rows.rows[0]?.n) > 0) return file;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no passages for ${name}`);
}

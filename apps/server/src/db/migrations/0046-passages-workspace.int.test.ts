import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialects } from '../../../test/helpers';
import { emptyDatabases, migrateThrough } from '../../../test/migrations';

// PostgreSQL only (SQLite keeps no workspace on passages); skipped where TEST_DATABASE_URL is unset, as on the
// other Node line's run (.ci/node-lines.sh), which still needs a suite in the file.
const postgres = dialects().includes('postgres');

describe('migration 0046-passages-workspace (postgres)', () => {
  const { open } = emptyDatabases('postgres');

  it.runIf(postgres)(
    'gives passages written before it their workspace, and keeps it in step with their file',
    async () => {
      const handle = await open();
      const db = handle.db;
      await migrateThrough(handle, '0045-passages-gin-direct');
      const now = '2026-01-01T00:00:00.000Z';
      for (const id of ['w1', 'w2'])
        await sql`insert into workspaces (id, name, created_at, updated_at, root_folder_id)
          values (${id}, ${id}, ${now}, ${now}, ${`root-${id}`})`.execute(db);
      const file = (id: string, workspaceId: string | null) => sql`insert into files
        (id, owner_key, file_name, name_key, size, content_type, sha256, blob_key, upload_date, workspace_id)
        values (${id}, 'olga', ${`${id}.txt`}, ${`${id}.txt`}, 1, 'text/plain', ${`sha-${id}`}, ${`files/${id}`},
          ${now}, ${workspaceId})`;
      await file('f1', 'w1').execute(db);
      await file('f2', null).execute(db);
      const passage = (fileId: string, ordinal: number) => sql`insert into passages (file_id, ordinal, text, text_tsv)
        values (${fileId}, ${ordinal}, 'The heron nests on the mill.', to_tsvector('simple', 'heron nests mill'))`;
      await passage('f1', 0).execute(db);
      await passage('f2', 0).execute(db);

      await migrateThrough(handle, '0046-passages-workspace');
      const workspaces = async () =>
        (
          await sql<{ file_id: string; ordinal: number; workspace_id: string | null }>`select file_id, ordinal,
            workspace_id from passages order by file_id, ordinal`.execute(db)
        ).rows;
      expect(await workspaces()).toEqual([
        { file_id: 'f1', ordinal: 0, workspace_id: 'w1' },
        { file_id: 'f2', ordinal: 0, workspace_id: null },
      ]);
      // Written later: the file's workspace; moved to another space or out of every workspace: its passages follow.
      await passage('f1', 1).execute(db);
      await sql`update files set workspace_id = 'w2' where id = 'f1'`.execute(db);
      await sql`update files set workspace_id = 'w1' where id = 'f2'`.execute(db);
      expect(await workspaces()).toEqual([
        { file_id: 'f1', ordinal: 0, workspace_id: 'w2' },
        { file_id: 'f1', ordinal: 1, workspace_id: 'w2' },
        { file_id: 'f2', ordinal: 0, workspace_id: 'w1' },
      ]);
      await sql`update files set workspace_id = null where id = 'f1'`.execute(db);
      expect((await workspaces()).map((row) => row.workspace_id)).toEqual([null, null, 'w1']);
    },
  );
});

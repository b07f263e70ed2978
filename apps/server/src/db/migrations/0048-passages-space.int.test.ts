import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrations } from '.';
import { emptyDatabases, migrateThrough } from '../../../test/migrations';

// SQLite only (PostgreSQL keeps the workspace beside the passage, migration 0046); SQLite runs on every line.
describe('migration 0048-passages-space (sqlite)', () => {
  const { open } = emptyDatabases('sqlite');

  it('indexes each passage’s workspace beside its words, keeps it in step with the file, and can be undone', async () => {
    const handle = await open();
    const db = handle.db;
    await migrateThrough(handle, '0047-vector-cells');
    const now = '2026-01-01T00:00:00.000Z';
    const w1 = 'A1B2C3D4-0000-4000-8000-00000000000A';
    const w2 = 'a1b2c3d4-0000-4000-8000-00000000000b';
    for (const id of [w1, w2])
      await sql`insert into workspaces (id, name, created_at, updated_at, root_folder_id)
        values (${id}, ${id}, ${now}, ${now}, ${`root-${id}`})`.execute(db);
    const file = (id: string, workspaceId: string | null) => sql`insert into files
      (id, owner_key, file_name, name_key, size, content_type, sha256, blob_key, upload_date, workspace_id)
      values (${id}, 'olga', ${`${id}.txt`}, ${`${id}.txt`}, 1, 'text/plain', ${`sha-${id}`}, ${`files/${id}`},
        ${now}, ${workspaceId})`;
    await file('f1', w1).execute(db);
    await file('f2', null).execute(db);
    const passage = (fileId: string, ordinal: number, text = 'The heron nests on the mill.') =>
      sql`insert into passages (file_id, ordinal, text) values (${fileId}, ${ordinal}, ${text})`;
    await passage('f1', 0).execute(db);
    await passage('f2', 0).execute(db);

    await migrateThrough(handle, '0048-passages-space');
    const spaces = async () =>
      (
        await sql<{ file_id: string; ordinal: number; space: string }>`select p.file_id, p.ordinal, f.space
          from passages p join passages_fts f on f.rowid = p.passage_id order by p.file_id, p.ordinal`.execute(db)
      ).rows;
    const t1 = 'wa1b2c3d400004000800000000000000a';
    const t2 = 'wa1b2c3d400004000800000000000000b';
    expect(await spaces()).toEqual([
      { file_id: 'f1', ordinal: 0, space: t1 },
      { file_id: 'f2', ordinal: 0, space: '' },
    ]);
    const matching = async (query: string) =>
      (
        await sql<{ file_id: string; ordinal: number }>`select p.file_id, p.ordinal from passages_fts
          join passages p on p.passage_id = passages_fts.rowid where passages_fts match ${query}
          order by p.file_id, p.ordinal`.execute(db)
      ).rows.map((row) => `${row.file_id}/${row.ordinal}`);
    expect(await matching(`space : "${t1}" AND text : heron`)).toEqual(['f1/0']);
    expect(await matching('heron')).toEqual(['f1/0', 'f2/0']);

    // Written later: the file's workspace; moved to another space or out of every workspace: its passages follow.
    await passage('f1', 1, 'A heron by the weir.').execute(db);
    await sql`update files set workspace_id = ${w2} where id = 'f1'`.execute(db);
    await sql`update files set workspace_id = ${w1} where id = 'f2'`.execute(db);
    expect(await spaces()).toEqual([
      { file_id: 'f1', ordinal: 0, space: t2 },
      { file_id: 'f1', ordinal: 1, space: t2 },
      { file_id: 'f2', ordinal: 0, space: t1 },
    ]);
    expect(await matching(`space : "${t2}" AND text : heron`)).toEqual(['f1/0', 'f1/1']);
    await sql`update files set workspace_id = null where id = 'f1'`.execute(db);
    expect((await spaces()).map((row) => row.space)).toEqual(['', '', t1]);
    // The vocabulary (migration 0044) is there again; a deleted passage leaves the index.
    expect((await sql<{ doc: number }>`select doc from passages_vocab where term = 'heron'`.execute(db)).rows).toEqual([
      { doc: 3 },
    ]);
    await sql`delete from passages where file_id = 'f2'`.execute(db);
    expect(await matching('heron')).toEqual(['f1/0', 'f1/1']);

    await migrations['0048-passages-space']?.down?.(db);
    expect(await matching('heron')).toEqual(['f1/0', 'f1/1']);
    await expect(sql`select space from passages_fts`.execute(db)).rejects.toThrow();
    await passage('f1', 2, 'Herons again.').execute(db);
    expect((await sql<{ doc: number }>`select doc from passages_vocab where term = 'heron'`.execute(db)).rows).toEqual([
      { doc: 2 },
    ]);
  });
});

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialects } from '../../../test/helpers';
import { emptyDatabases, migrateThrough } from '../../../test/migrations';
import { createSearchRepository } from '../../modules/search/search.repository';

describe.each(dialects())('migration 0017-search (%s)', (dialect) => {
  const { open } = emptyDatabases(dialect);

  it('indexes the files and folders already stored, then follows writes made by plain SQL (triggers)', async () => {
    const handle = await open();
    await migrateThrough(handle, '0015-contact-status');
    const now = '2026-01-01T00:00:00.000Z';
    const folder = (id: string, parent: string | null, name: string) => ({
      id,
      workspace_id: null,
      owner_key: 'olga',
      parent_id: parent,
      name,
      name_key: name.toLowerCase(),
      created_by: null,
      created_at: now,
      updated_at: now,
    });
    await handle.db
      .insertInto('folders')
      .values([folder('root', null, 'olga'), folder('d1', 'root', 'Invoices 2025')])
      .execute();
    await handle.db
      .insertInto('files')
      .values({
        id: 'f1',
        owner_key: 'olga',
        file_name: 'march-invoice.pdf',
        name_key: 'march-invoice.pdf',
        size: 10,
        content_type: 'application/pdf',
        sha256: 'x',
        blob_key: 'files/f1',
        upload_date: now,
        folder_id: 'd1',
        workspace_id: null,
        uploaded_by: null,
      })
      .execute();

    await migrateThrough(handle, '0017-search');
    // Today's search queries also read what migrations 0023 and 0024 add (PostgreSQL: `all_tsv`; SQLite: the FTS5
    // `scope` column), made from the rows indexed here.
    await migrateThrough(handle, '0024-search-scope');
    const repo = createSearchRepository(handle.db, handle.dialect);
    const olga = { kind: 'user', id: 'u-olga', ownerKey: 'olga', role: 'user' } as never;
    const found = async (q: string) =>
      (await repo.search(olga, [q], {}, { offset: 0, limit: 10 })).map((row) => [row.kind, row.name, row.place_id]);
    expect(await found('inv')).toEqual([
      ['folder', 'Invoices 2025', 'root'],
      ['file', 'march-invoice.pdf', 'd1'],
    ]);
    // Writes that bypass every service still reach the index: rename, move, delete.
    await sql`update files set file_name = 'april-bill.pdf' where id = 'f1'`.execute(handle.db);
    await sql`update files set folder_id = 'root' where id = 'f1'`.execute(handle.db);
    expect(await found('april')).toEqual([['file', 'april-bill.pdf', 'root']]);
    expect(await found('march')).toEqual([]);
    await sql`delete from folders where id = 'd1'`.execute(handle.db);
    await sql`delete from files where id = 'f1'`.execute(handle.db);
    expect(await found('inv')).toEqual([]);
    expect(await found('april')).toEqual([]);
    const { rows } = await sql<{ n: number }>`select count(*) as n from search_documents`.execute(handle.db);
    expect(Number(rows[0]?.n)).toBe(1);
  });
});

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db';
import { dialects } from '../../../test/helpers';
import { emptyDatabases, migrateThrough } from '../../../test/migrations';
import { createFoldersRepository, type KeysetAfter } from './folders.repository';

/**
 * A folder's files in name order (migration 0043): the listing and the WebDAV tree page through a folder by
 * `coalesce(name_key, file_name)` then id; each page must be a range read of the index, not a scan and sort of the
 * rest of the folder.
 */
describe.each(dialects())('a folder paged by name (%s)', (dialect) => {
  const { open } = emptyDatabases(dialect);

  it('reads each page as a range of the name-order index and returns every file once, in order', async () => {
    const handle = await open();
    await migrateThrough(handle, '0043-folder-file-order');
    const db = handle.db as unknown as Db;
    const now = '2026-01-01T00:00:00.000Z';
    for (const folder of ['d1', 'd2']) {
      await db
        .insertInto('folders')
        .values({
          id: folder,
          workspace_id: null,
          owner_key: folder === 'd1' ? 'olga' : 'pia',
          parent_id: null,
          name: folder,
          name_key: folder,
          created_by: null,
          created_at: now,
          updated_at: now,
          trashed_at: null,
          trashed_by: null,
          trash_root_id: null,
        })
        .execute();
    }
    const count = 2500;
    for (let start = 0; start < count; start += 500) {
      const rows = [];
      for (let i = start; i < start + 500; i += 1) {
        for (const folder of ['d1', 'd2']) {
          const name = `f${String((i * 7919) % count).padStart(5, '0')}.txt`;
          rows.push({
            id: `${folder}-${String(i).padStart(5, '0')}`,
            owner_key: folder === 'd1' ? 'olga' : 'pia',
            file_name: name,
            // Every tenth file stored before 0009 without a name key: its name orders it.
            name_key: i % 10 === 0 ? null : name,
            size: 1,
            content_type: 'text/plain',
            sha256: 'sha',
            blob_key: `files/${folder}-${i}`,
            upload_date: now,
            folder_id: folder,
            workspace_id: null,
            uploaded_by: null,
            trashed_at: i % 50 === 1 ? now : null,
            trashed_by: null,
            trash_root_id: null,
          });
        }
      }
      await db.insertInto('files').values(rows).execute();
    }
    await sql`analyze`.execute(db);

    // The repository's own statements, captured as they run, then explained.
    const statements: { sql: string; parameters: readonly unknown[] }[] = [];
    const capturing = db.withPlugin({
      transformQuery: (args) => {
        const compiled = db.getExecutor().compileQuery(args.node, args.queryId);
        statements.push({ sql: compiled.sql, parameters: compiled.parameters });
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    });
    const folders = createFoldersRepository(capturing);
    const seen: string[] = [];
    let after: KeysetAfter | undefined;
    for (;;) {
      const page = await folders.listFolderFiles('d1', 'name', false, 1000, after);
      seen.push(...page.map((row) => row.file_name));
      if (page.length < 1000) break;
      const last = page[page.length - 1];
      if (!last) break;
      after = { value: last.name_key ?? last.file_name, id: last.id };
    }
    const live = count - count / 50;
    expect(seen).toHaveLength(live);
    expect(seen).toEqual([...seen].sort());

    const continued = statements.at(-1);
    if (!continued) throw new Error('No statement was captured.');
    // The statement explained with its own values.
    const lines = await db
      .getExecutor()
      .executeQuery({
        query: { kind: 'RawNode', sqlFragments: [], parameters: [] } as never,
        queryId: { queryId: 'explain' },
        sql: (dialect === 'sqlite' ? 'explain query plan ' : 'explain ') + continued.sql,
        parameters: continued.parameters,
      } as never)
      .then((result) => (result.rows as Record<string, string>[]).map((row) => row.detail ?? row['QUERY PLAN']));
    const text = lines.join('\n');
    expect(text).toContain('files_folder_name_order');
    if (dialect === 'sqlite') {
      // A seek on the folder and the name order, no sort of the folder.
      expect(text).toMatch(/files_folder_name_order \(folder_id=\? AND <expr>>\?\)/);
      expect(text).not.toContain('TEMP B-TREE');
    } else {
      // A range of the index (the planner may sort the few rows of a last page itself).
      expect(text).toMatch(/Index Cond: \(\(folder_id = .+\) AND \(COALESCE\(name_key, file_name\) >= .+\)\)/);
      expect(text).not.toMatch(/Seq Scan/);
    }
  });
});

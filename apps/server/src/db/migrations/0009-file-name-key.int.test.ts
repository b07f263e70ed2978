import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialects } from '../../../test/helpers';
import { emptyDatabases, migrateThrough } from '../../../test/migrations';

describe.each(dialects())('migration 0009-file-name-key (%s)', (dialect) => {
  const { open } = emptyDatabases(dialect);

  it('keeps every stored name; the oldest of equal names gets the key, so new uploads number after it', async () => {
    const handle = await open();
    await migrateThrough(handle, '0007-rate-limits');
    const row = (id: string, owner: string, name: string, date: string) => ({
      id,
      owner_key: owner,
      file_name: name,
      size: 1,
      content_type: 'text/plain',
      sha256: id,
      blob_key: `files/${id}`,
      upload_date: date,
    });
    // Before 0009 the table has no name_key column: write the rows as they were then.
    const before = handle.db as unknown as Kysely<{ files: ReturnType<typeof row> }>;
    await before
      .insertInto('files')
      .values([
        row('2', 'alice', 'A.TXT', '2026-01-02T00:00:00.000Z'),
        row('1', 'alice', 'a.txt', '2026-01-01T00:00:00.000Z'),
        row('3', 'bob', 'a.txt', '2026-01-03T00:00:00.000Z'),
        row('4', 'alice', 'b.txt', '2026-01-04T00:00:00.000Z'),
      ])
      .execute();

    await migrateThrough(handle, '0009-file-name-key');
    const rows = await handle.db.selectFrom('files').select(['id', 'file_name', 'name_key']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: '1', file_name: 'a.txt', name_key: 'a.txt' },
      { id: '2', file_name: 'A.TXT', name_key: null },
      { id: '3', file_name: 'a.txt', name_key: 'a.txt' },
      { id: '4', file_name: 'b.txt', name_key: 'b.txt' },
    ]);
    // The index holds from now on.
    await expect(
      handle.db
        .insertInto('files')
        .values({ ...row('5', 'alice', 'a.txt', '2026-01-05T00:00:00.000Z'), name_key: 'a.txt' })
        .execute(),
    ).rejects.toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import { dialects } from '../../../test/helpers';
import { emptyDatabases, migrateThrough } from '../../../test/migrations';

describe.each(dialects())('migration 0031-link-arrivals (%s)', (dialect) => {
  const { open } = emptyDatabases(dialect);

  it('records arrivals of a drop link that go with their file and with their link', async () => {
    const handle = await open();
    await migrateThrough(handle, '0031-link-arrivals');
    const now = '2026-01-01T00:00:00.000Z';
    const file = (id: string) => ({
      id,
      owner_key: 'olga',
      file_name: `${id}.txt`,
      name_key: `${id}.txt`,
      size: 1,
      content_type: 'text/plain',
      sha256: `sha-${id}`,
      blob_key: `files/${id}`,
      upload_date: now,
      folder_id: null,
      workspace_id: null,
      uploaded_by: null,
    });
    await handle.db
      .insertInto('files')
      .values([file('f1'), file('f2')])
      .execute();
    await handle.db
      .insertInto('folders')
      .values({
        id: 'd1',
        workspace_id: null,
        owner_key: 'olga',
        parent_id: null,
        name: 'Inbox',
        name_key: 'inbox',
        created_by: null,
        created_at: now,
        updated_at: now,
        trashed_at: null,
        trashed_by: null,
        trash_root_id: null,
      })
      .execute();
    await handle.db
      .insertInto('links')
      .values({
        id: 'l1',
        token: 'tok',
        file_id: null,
        folder_id: 'd1',
        created_by: null,
        created_at: now,
        expires_at: null,
        password_hash: null,
        max_downloads: null,
        allow_upload: 1,
        revoked_at: null,
      })
      .execute();
    const arrival = (id: string, fileId: string) => ({
      id,
      link_id: 'l1',
      file_id: fileId,
      file_name: `${fileId}.txt`,
      created_at: now,
    });
    await handle.db
      .insertInto('link_arrivals')
      .values([arrival('a1', 'f1'), arrival('a2', 'f2')])
      .execute();
    // An arrival names a real file and link.
    await expect(handle.db.insertInto('link_arrivals').values(arrival('a3', 'nope')).execute()).rejects.toThrow();

    // A file purged for good leaves the list.
    await handle.db.deleteFrom('files').where('id', '=', 'f1').execute();
    expect((await handle.db.selectFrom('link_arrivals').select('id').execute()).map((r) => r.id)).toEqual(['a2']);
    // A link deleted takes its arrivals.
    await handle.db.deleteFrom('links').where('id', '=', 'l1').execute();
    expect(await handle.db.selectFrom('link_arrivals').selectAll().execute()).toEqual([]);
  });
});

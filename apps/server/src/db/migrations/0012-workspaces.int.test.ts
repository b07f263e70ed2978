import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialects } from '../../../test/helpers';
import { emptyDatabases, migrateThrough } from '../../../test/migrations';
import type { FilesTable } from '../schema';

interface Before {
  users: {
    id: string;
    owner_key: string;
    role: string;
    created_at: string;
    updated_at: string;
  };
  /** The files table as 0011 left it: 0012 adds the folder, the workspace and the uploader. */
  files: Pick<
    FilesTable,
    'id' | 'owner_key' | 'file_name' | 'name_key' | 'size' | 'content_type' | 'sha256' | 'blob_key' | 'upload_date'
  >;
  notifications: { message: string; type: string; audience_user_id: string | null; created_at: string };
}

describe.each(dialects())('migration 0012-workspaces (%s)', (dialect) => {
  const { open } = emptyDatabases(dialect);

  it('puts every file into its owner’s personal root folder and keeps notifications’ audiences', async () => {
    const handle = await open();
    await migrateThrough(handle, '0011-job-leases');
    const before = handle.db as unknown as Kysely<Before>;
    const at = '2026-01-01T00:00:00.000Z';
    await before
      .insertInto('users')
      .values({ id: 'u-alice', owner_key: 'alice', role: 'user', created_at: at, updated_at: at })
      .execute();
    const file = (id: string, owner: string, name: string, key: string | null) => ({
      id,
      owner_key: owner,
      file_name: name,
      name_key: key,
      size: 1,
      content_type: 'text/plain',
      sha256: id,
      blob_key: `files/${id}`,
      upload_date: at,
    });
    await before
      .insertInto('files')
      .values([
        file('1', 'alice', 'a.txt', 'a.txt'),
        file('2', 'alice', 'A.TXT', null),
        // An owner who never signed in (files stored through `{userId}` paths by an admin).
        file('3', 'ghost', 'a.txt', 'a.txt'),
      ])
      .execute();
    await before
      .insertInto('notifications')
      .values([
        { message: 'to all', type: 'admin', audience_user_id: null, created_at: at },
        { message: 'to alice', type: 'welcome', audience_user_id: 'u-alice', created_at: at },
      ])
      .execute();

    await migrateThrough(handle, '0012-workspaces');
    const { db } = handle;
    const roots = await db.selectFrom('folders').selectAll().orderBy('owner_key').execute();
    expect(roots.map((r) => [r.owner_key, r.workspace_id, r.parent_id, r.name, r.created_by])).toEqual([
      ['alice', null, null, 'Personal', 'u-alice'],
      ['ghost', null, null, 'Personal', null],
    ]);
    const rootOf = (owner: string) => roots.find((r) => r.owner_key === owner)?.id;
    const files = await db
      .selectFrom('files')
      .select(['id', 'file_name', 'name_key', 'folder_id', 'workspace_id', 'uploaded_by'])
      .orderBy('id')
      .execute();
    expect(files).toEqual([
      {
        id: '1',
        file_name: 'a.txt',
        name_key: 'a.txt',
        folder_id: rootOf('alice'),
        workspace_id: null,
        uploaded_by: 'u-alice',
      },
      {
        id: '2',
        file_name: 'A.TXT',
        name_key: null,
        folder_id: rootOf('alice'),
        workspace_id: null,
        uploaded_by: 'u-alice',
      },
      {
        id: '3',
        file_name: 'a.txt',
        name_key: 'a.txt',
        folder_id: rootOf('ghost'),
        workspace_id: null,
        uploaded_by: null,
      },
    ]);
    const notifications = await db
      .selectFrom('notifications')
      .select(['message', 'audience_type', 'audience_id'])
      .orderBy('seq')
      .execute();
    expect(notifications).toEqual([
      { message: 'to all', audience_type: 'all', audience_id: null },
      { message: 'to alice', audience_type: 'user', audience_id: 'u-alice' },
    ]);

    const newFile = (id: string, folder: string | null) => ({
      ...file(id, 'alice', 'a.txt', 'a.txt'),
      folder_id: folder,
      workspace_id: null,
      uploaded_by: null,
    });
    // One name per folder…
    await expect(
      db
        .insertInto('files')
        .values(newFile('4', rootOf('alice') ?? ''))
        .execute(),
    ).rejects.toThrow();
    // …and per owner among files not yet in a folder (today's uploads), which do not clash with placed ones.
    await db.insertInto('files').values(newFile('5', null)).execute();
    await expect(db.insertInto('files').values(newFile('6', null)).execute()).rejects.toThrow();
    // Exactly one root per personal space.
    const [aliceRoot] = roots;
    expect(aliceRoot).toBeDefined();
    if (aliceRoot) {
      await expect(
        db
          .insertInto('folders')
          .values({ ...aliceRoot, id: 'second-root' })
          .execute(),
      ).rejects.toThrow();
    }
    // A share names exactly one resource.
    await expect(
      db
        .insertInto('shares')
        .values({
          id: 's1',
          file_id: '1',
          folder_id: rootOf('alice') ?? null,
          grantee_user_id: 'u-alice',
          grantee_workspace_id: null,
          role: 'viewer',
          created_by: null,
          created_at: at,
        })
        .execute(),
    ).rejects.toThrow();
  });
});

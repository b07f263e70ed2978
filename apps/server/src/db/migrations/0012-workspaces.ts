import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** The `folders` table as this migration creates it (0013 writes it too). */
export interface FoldersTable0012 {
  id: string;
  workspace_id: string | null;
  owner_key: string | null;
  parent_id: string | null;
  name: string;
  name_key: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

interface Before {
  files: { id: string; owner_key: string; folder_id: string | null; uploaded_by: string | null };
  users: { id: string; owner_key: string };
  folders: FoldersTable0012;
  notifications: { audience_user_id: string | null; audience_type: string; audience_id: string | null };
}

/** The name of every personal space's root folder (never shown as a folder: it is the space itself). */
const PERSONAL_ROOT_NAME = 'Personal';

/**
 * Team workspaces, folders, shares and public links (docs/PRODUCT.md#workspaces-and-folders), the whole model at once:
 * - `workspaces` and `workspace_members` (owner / editor / viewer);
 * - `folders`: every space (a workspace, or a user's personal space keyed by owner key) has exactly one root folder
 *   (`parent_id` null; a partial unique index per workspace and per personal owner), folders nest, and names are
 *   unique per parent folder (compared by `name_key`, the files' rule);
 * - `files` gain `folder_id` (null: not yet placed), `workspace_id` (null: the personal space of `owner_key`) and
 *   `uploaded_by`; every existing file moves into its owner's personal root (created here); the name index becomes
 *   one per folder, plus one per owner for files without a folder;
 * - `shares` (a file or a folder with a user or a workspace, viewer or editor), `links` (public links);
 * - notifications gain an audience (`all`, `workspace`, `user`) and its id; per-user ones keep their user.
 */
export const m0012Workspaces: Migration = {
  async up(untyped: Kysely<unknown>) {
    const db = untyped as Kysely<Before>;
    const now = new Date().toISOString();

    await db.schema
      .createTable('workspaces')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      // The root folder is created with the workspace, in one transaction (no foreign key: the two point at each
      // other).
      .addColumn('root_folder_id', 'text', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('workspace_members')
      .addColumn('workspace_id', 'text', (col) => col.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role', 'text', (col) => col.notNull())
      .addColumn('added_by', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('added_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('workspace_members_pk', ['workspace_id', 'user_id'])
      .addCheckConstraint('workspace_members_role', sql`role in ('owner', 'editor', 'viewer')`)
      .execute();
    await db.schema.createIndex('workspace_members_user').on('workspace_members').column('user_id').execute();

    await db.schema
      .createTable('folders')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('workspace_id', 'text', (col) => col.references('workspaces.id').onDelete('cascade'))
      .addColumn('owner_key', 'text')
      .addColumn('parent_id', 'text', (col) => col.references('folders.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('name_key', 'text', (col) => col.notNull())
      .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      // A folder is in a workspace or in one person's space, never both.
      .addCheckConstraint('folders_space', sql`(workspace_id is null) <> (owner_key is null)`)
      .execute();
    await db.schema
      .createIndex('folders_parent_name_key')
      .on('folders')
      .columns(['parent_id', 'name_key'])
      .unique()
      .where(sql<boolean>`parent_id is not null`)
      .execute();
    await db.schema
      .createIndex('folders_workspace_root')
      .on('folders')
      .column('workspace_id')
      .unique()
      .where(sql<boolean>`parent_id is null and workspace_id is not null`)
      .execute();
    await db.schema
      .createIndex('folders_personal_root')
      .on('folders')
      .column('owner_key')
      .unique()
      .where(sql<boolean>`parent_id is null and owner_key is not null`)
      .execute();

    await db.schema
      .alterTable('files')
      .addColumn('folder_id', 'text', (col) => col.references('folders.id'))
      .execute();
    await db.schema
      .alterTable('files')
      .addColumn('workspace_id', 'text', (col) => col.references('workspaces.id'))
      .execute();
    await db.schema
      .alterTable('files')
      .addColumn('uploaded_by', 'text', (col) => col.references('users.id').onDelete('set null'))
      .execute();

    // Every stored file goes into its owner's personal root folder.
    const owners = await db.selectFrom('files').select('owner_key').distinct().execute();
    for (const { owner_key: ownerKey } of owners) {
      const user = await db.selectFrom('users').select('id').where('owner_key', '=', ownerKey).executeTakeFirst();
      const rootId = randomUUID();
      await db
        .insertInto('folders')
        .values({
          id: rootId,
          workspace_id: null,
          owner_key: ownerKey,
          parent_id: null,
          name: PERSONAL_ROOT_NAME,
          name_key: PERSONAL_ROOT_NAME.toLowerCase(),
          created_by: user?.id ?? null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await db
        .updateTable('files')
        .set({ folder_id: rootId, uploaded_by: user?.id ?? null })
        .where('owner_key', '=', ownerKey)
        .execute();
    }

    await db.schema.dropIndex('files_owner_name_key').execute();
    await db.schema
      .createIndex('files_folder_name_key')
      .on('files')
      .columns(['folder_id', 'name_key'])
      .unique()
      .where(sql<boolean>`folder_id is not null`)
      .execute();
    await db.schema
      .createIndex('files_owner_name_key_unplaced')
      .on('files')
      .columns(['owner_key', 'name_key'])
      .unique()
      .where(sql<boolean>`folder_id is null`)
      .execute();
    // A workspace's usage (quota) without reading the rows.
    await db.schema.createIndex('files_workspace_size').on('files').columns(['workspace_id', 'size']).execute();

    await db.schema
      .createTable('shares')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('file_id', 'text', (col) => col.references('files.id').onDelete('cascade'))
      .addColumn('folder_id', 'text', (col) => col.references('folders.id').onDelete('cascade'))
      .addColumn('grantee_user_id', 'text', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('grantee_workspace_id', 'text', (col) => col.references('workspaces.id').onDelete('cascade'))
      .addColumn('role', 'text', (col) => col.notNull())
      .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addCheckConstraint('shares_one_resource', sql`(file_id is null) <> (folder_id is null)`)
      .addCheckConstraint('shares_one_grantee', sql`(grantee_user_id is null) <> (grantee_workspace_id is null)`)
      .addCheckConstraint('shares_role', sql`role in ('editor', 'viewer')`)
      .execute();
    // One share per resource and grantee; grantee first, so "shared with me" reads these indexes.
    for (const [resource, grantee] of [
      ['file_id', 'grantee_user_id'],
      ['folder_id', 'grantee_user_id'],
      ['file_id', 'grantee_workspace_id'],
      ['folder_id', 'grantee_workspace_id'],
    ] as const) {
      await db.schema
        .createIndex(`shares_${grantee.replace('grantee_', '')}_${resource}`)
        .on('shares')
        .columns([grantee, resource])
        .unique()
        .where(sql<boolean>`${sql.ref(grantee)} is not null and ${sql.ref(resource)} is not null`)
        .execute();
    }
    // Who has access to a resource (the owner's view).
    await db.schema.createIndex('shares_file').on('shares').column('file_id').execute();
    await db.schema.createIndex('shares_folder').on('shares').column('folder_id').execute();

    await db.schema
      .createTable('links')
      .addColumn('id', 'text', (col) => col.primaryKey())
      // At least 128 bits of randomness, base64url.
      .addColumn('token', 'text', (col) => col.notNull().unique())
      .addColumn('file_id', 'text', (col) => col.references('files.id').onDelete('cascade'))
      .addColumn('folder_id', 'text', (col) => col.references('folders.id').onDelete('cascade'))
      .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('password_hash', 'text')
      .addColumn('max_downloads', 'integer')
      .addColumn('download_count', 'integer', (col) => col.notNull().defaultTo(0))
      // 0/1 in both dialects.
      .addColumn('allow_upload', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('revoked_at', 'text')
      .addCheckConstraint('links_one_resource', sql`(file_id is null) <> (folder_id is null)`)
      .execute();
    await db.schema.createIndex('links_file').on('links').column('file_id').execute();
    await db.schema.createIndex('links_folder').on('links').column('folder_id').execute();

    await db.schema
      .alterTable('notifications')
      .addColumn('audience_type', 'text', (col) => col.notNull().defaultTo('all'))
      .execute();
    await db.schema.alterTable('notifications').addColumn('audience_id', 'text').execute();
    await db
      .updateTable('notifications')
      .set((eb) => ({ audience_type: 'user', audience_id: eb.ref('audience_user_id') }))
      .where('audience_user_id', 'is not', null)
      .execute();
    await db.schema
      .createIndex('notifications_audience_type_id_seq')
      .on('notifications')
      .columns(['audience_type', 'audience_id', 'seq'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('notifications_audience_type_id_seq').execute();
    await db.schema.alterTable('notifications').dropColumn('audience_id').execute();
    await db.schema.alterTable('notifications').dropColumn('audience_type').execute();
    await db.schema.dropTable('links').execute();
    await db.schema.dropTable('shares').execute();
    await db.schema.dropIndex('files_workspace_size').execute();
    await db.schema.dropIndex('files_owner_name_key_unplaced').execute();
    await db.schema.dropIndex('files_folder_name_key').execute();
    await db.schema.alterTable('files').dropColumn('uploaded_by').execute();
    await db.schema.alterTable('files').dropColumn('workspace_id').execute();
    await db.schema.alterTable('files').dropColumn('folder_id').execute();
    await db.schema
      .createIndex('files_owner_name_key')
      .on('files')
      .columns(['owner_key', 'name_key'])
      .unique()
      .execute();
    await db.schema.dropTable('folders').execute();
    await db.schema.dropTable('workspace_members').execute();
    await db.schema.dropTable('workspaces').execute();
  },
};

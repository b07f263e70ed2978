import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../db';
import type { LinksTable } from '../../db/schema';
import type { FileRow } from '../files/files.repository';

export type LinkRow = Selectable<LinksTable>;
/** A link with its creator's display name (for the owner's list). */
export type LinkWithCreator = LinkRow & { creator_name: string | null };

/** A folder of a shared tree, for the zip. */
export interface TreeFolder {
  id: string;
  parent_id: string | null;
  name: string;
}

/** How many ids go into one `in (…)` list. */
const CHUNK = 500;

/** Plain queries on `links` (migration 0012) and the shared trees links expose. No rules here. */
export const createLinksRepository = (db: Db) => {
  const withCreator = () =>
    db
      .selectFrom('links')
      .leftJoin('users', 'users.id', 'links.created_by')
      .selectAll('links')
      .select(sql<string | null>`coalesce(users.name, users.nickname)`.as('creator_name'));

  return {
    async insert(row: LinkRow): Promise<void> {
      await db.insertInto('links').values(row).execute();
    },

    async findById(id: string): Promise<LinkWithCreator | undefined> {
      return withCreator().where('links.id', '=', id).executeTakeFirst();
    },

    /**
     * The link with this token, unless an admin disabled the person who made it (their links rest meanwhile) or its
     * file or folder is in the trash (the link works again once it is restored).
     */
    async findByToken(token: string): Promise<LinkRow | undefined> {
      return db
        .selectFrom('links')
        .selectAll()
        .where('token', '=', token)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('users')
                .select('users.id')
                .whereRef('users.id', '=', 'links.created_by')
                .where('users.disabled_at', 'is not', null),
            ),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('files')
                .select('files.id')
                .whereRef('files.id', '=', 'links.file_id')
                .where('files.trashed_at', 'is not', null),
            ),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('folders')
                .select('folders.id')
                .whereRef('folders.id', '=', 'links.folder_id')
                .where('folders.trashed_at', 'is not', null),
            ),
          ),
        )
        .executeTakeFirst();
    },

    /** The links of a file or folder not revoked, newest first. */
    async listFor(target: { fileId: string } | { folderId: string }): Promise<LinkWithCreator[]> {
      const query =
        'fileId' in target
          ? withCreator().where('links.file_id', '=', target.fileId)
          : withCreator().where('links.folder_id', '=', target.folderId);
      return query
        .where('links.revoked_at', 'is', null)
        .orderBy('links.created_at', 'desc')
        .orderBy('links.id')
        .execute();
    },

    /** Marks a link revoked (kept for the record; it answers 404 from now on). False when it already was. */
    async revoke(id: string, now: string): Promise<boolean> {
      const result = await db
        .updateTable('links')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Counts one download, atomically within the limit: false when the link was revoked or used up meanwhile (two
     * last downloads at once: one of them gets it).
     */
    async countDownload(id: string): Promise<boolean> {
      const result = await db
        .updateTable('links')
        .set({ download_count: sql<number>`download_count + 1` })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('max_downloads', 'is', null), eb('download_count', '<', eb.ref('max_downloads'))]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Whether folder `folderId` is `ancestorId` or lies anywhere below it. */
    async isWithin(folderId: string, ancestorId: string): Promise<boolean> {
      const { rows } = await sql<{ id: string }>`
        with recursive chain(id, parent_id) as (
          select id, parent_id from folders where id = ${folderId}
          union all
          select f.id, f.parent_id from folders f join chain c on f.id = c.parent_id
        )
        select id from chain where id = ${ancestorId}
      `.execute(db);
      return rows.length > 0;
    },

    /** The path of folder names from `ancestorId` (first) down to `folderId` (last); empty when not within. */
    async pathBetween(ancestorId: string, folderId: string): Promise<{ id: string; name: string }[]> {
      const path: { id: string; name: string }[] = [];
      let current: string | null = folderId;
      for (let depth = 0; current !== null && depth < 10_000; depth++) {
        const row = await db
          .selectFrom('folders')
          .select(['id', 'name', 'parent_id'])
          .where('id', '=', current)
          .where('trashed_at', 'is', null)
          .executeTakeFirst();
        if (!row) return [];
        path.unshift({ id: row.id, name: row.name });
        if (row.id === ancestorId) return path;
        current = row.parent_id;
      }
      return [];
    },

    /** Every folder below `rootId` (not the root itself), level by level. */
    async subfolders(rootId: string): Promise<TreeFolder[]> {
      const found: TreeFolder[] = [];
      for (let level = [rootId]; level.length > 0;) {
        const next: TreeFolder[] = [];
        for (let i = 0; i < level.length; i += CHUNK) {
          next.push(
            ...(await db
              .selectFrom('folders')
              .select(['id', 'parent_id', 'name'])
              .where('parent_id', 'in', level.slice(i, i + CHUNK))
              .where('trashed_at', 'is', null)
              .orderBy('name_key')
              .execute()),
          );
        }
        found.push(...next);
        level = next.map((folder) => folder.id);
      }
      return found;
    },

    /** The files of `folderIds`, by folder and name. */
    async filesIn(folderIds: string[]): Promise<FileRow[]> {
      const files: FileRow[] = [];
      for (let i = 0; i < folderIds.length; i += CHUNK) {
        files.push(
          ...(await db
            .selectFrom('files')
            .selectAll()
            .where('folder_id', 'in', folderIds.slice(i, i + CHUNK))
            .where('trashed_at', 'is', null)
            .orderBy('folder_id')
            .orderBy(sql`coalesce(name_key, file_name)`)
            .execute()),
        );
      }
      return files;
    },
  };
};

export type LinksRepository = ReturnType<typeof createLinksRepository>;

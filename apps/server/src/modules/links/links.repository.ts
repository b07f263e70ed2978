import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../db';
import type { LinksTable } from '../../db/schema';
import type { FileRow } from '../files';
import { folderAncestors, folderAncestorsCte, folderDescendants } from '../../db/folder-walk';

export type LinkRow = Selectable<LinksTable>;
/** The columns of a link's maker that its use needs (their right to share is checked on each use); null: deleted. */
export interface LinkMaker {
  maker_owner_key: string | null;
  maker_role: 'user' | 'admin' | null;
  maker_name: string | null;
  maker_nickname: string | null;
  maker_email: string | null;
  maker_picture: string | null;
}
/** A link with its creator's display name (for the owner's list). */
export type LinkWithCreator = LinkRow & { creator_name: string | null };

/** What arrived through a file-drop link: how many files, and the newest few (newest first). */
export interface LinkArrivals {
  count: number;
  recent: { file_id: string; file_name: string; created_at: string }[];
}

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
    async findByToken(token: string): Promise<(LinkRow & LinkMaker) | undefined> {
      return db
        .selectFrom('links')
        .leftJoin('users as maker', 'maker.id', 'links.created_by')
        .selectAll('links')
        .select([
          'maker.owner_key as maker_owner_key',
          'maker.role as maker_role',
          'maker.name as maker_name',
          'maker.nickname as maker_nickname',
          'maker.email as maker_email',
          'maker.picture as maker_picture',
        ])
        .where('links.token', '=', token)
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

    /** Records a file stored through a file-drop link (one insert: parallel drops are each counted). */
    async recordArrival(row: { id: string; link_id: string; file_id: string; file_name: string; created_at: string }) {
      await db.insertInto('link_arrivals').values(row).execute();
    },

    /**
     * What arrived through each of `linkIds`: the count and the `recent` newest (a file in the trash is left out
     * until it is restored; a purged one is gone with its row). Links with nothing yet are absent from the map.
     */
    async arrivalsOf(linkIds: string[], recent: number): Promise<Map<string, LinkArrivals>> {
      const byLink = new Map<string, LinkArrivals>();
      const arrived = () =>
        db
          .selectFrom('link_arrivals')
          .innerJoin('files', 'files.id', 'link_arrivals.file_id')
          .where('files.trashed_at', 'is', null);
      for (let i = 0; i < linkIds.length; i += CHUNK) {
        const counts = await arrived()
          .select(['link_arrivals.link_id', (eb) => eb.fn.countAll<number | string>().as('count')])
          .where('link_arrivals.link_id', 'in', linkIds.slice(i, i + CHUNK))
          .groupBy('link_arrivals.link_id')
          .execute();
        for (const { link_id, count } of counts) byLink.set(link_id, { count: Number(count), recent: [] });
      }
      for (const [linkId, entry] of byLink) {
        entry.recent = await arrived()
          .select(['link_arrivals.file_id', 'link_arrivals.file_name', 'link_arrivals.created_at'])
          .where('link_arrivals.link_id', '=', linkId)
          .orderBy('link_arrivals.created_at', 'desc')
          .orderBy('link_arrivals.id', 'desc')
          .limit(recent)
          .execute();
      }
      return byLink;
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

    /**
     * Starts a download of a link's file (a whole GET or a first range), atomically within the download limit: counts
     * one download, allows the file's `size` more bytes and counts the `length` sent now. False when the link was
     * revoked or used up meanwhile.
     */
    async startTransfer(id: string, size: number, length: number): Promise<boolean> {
      const result = await db
        .updateTable('links')
        .set({
          download_count: sql<number>`download_count + 1`,
          bytes_allowed: sql<number>`bytes_allowed + ${size}`,
          bytes_served: sql<number>`bytes_served + ${length}`,
        })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('max_downloads', 'is', null), eb('download_count', '<', eb.ref('max_downloads'))]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Continues a download (a later range: a resume or a seek) on the bytes the counted downloads allow, atomically:
     * false when they do not cover `length` more (or the link was revoked); a link without a limit always may.
     */
    async continueTransfer(id: string, length: number): Promise<boolean> {
      const result = await db
        .updateTable('links')
        .set({ bytes_served: sql<number>`bytes_served + ${length}` })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb('max_downloads', 'is', null),
            eb(sql<number>`bytes_served + ${length}`, '<=', eb.ref('bytes_allowed')),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Gives back bytes counted for a transfer that stopped before sending them (never below zero). */
    async refundBytes(id: string, bytes: number): Promise<void> {
      await db
        .updateTable('links')
        .set({
          bytes_served: sql<number>`case when bytes_served > ${bytes} then bytes_served - ${bytes} else 0 end`,
        })
        .where('id', '=', id)
        .execute();
    },

    /** Whether folder `folderId` is `ancestorId` or lies anywhere below it (one bounded recursive query). */
    async isWithin(folderId: string, ancestorId: string): Promise<boolean> {
      const { rows } = await sql<{ id: string }>`
        with recursive ${folderAncestorsCte([folderId])}
        select id from folder_up where id = ${ancestorId}
      `.execute(db);
      return rows.length > 0;
    },

    /**
     * The path of folder names from `ancestorId` (first) down to `folderId` (last); empty when not within, or when a
     * folder on the way is in the trash. One bounded recursive query.
     */
    async pathBetween(ancestorId: string, folderId: string): Promise<{ id: string; name: string }[]> {
      const path: { id: string; name: string }[] = [];
      for (const row of await folderAncestors(db, folderId)) {
        if (row.trashed_at !== null) return [];
        path.unshift({ id: row.id, name: row.name });
        if (row.id === ancestorId) return path;
      }
      return [];
    },

    /** Every folder below `rootId` (not the root itself), level by level, by name: one bounded recursive query. */
    async subfolders(rootId: string): Promise<TreeFolder[]> {
      return (await folderDescendants(db, rootId)).map(({ id, parent_id, name }) => ({ id, parent_id, name }));
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

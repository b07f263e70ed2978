import type { Db } from '../../db';
import type { DavChunkedUploadsTable } from '../../db/schema';

/** Plain queries on dav_chunked_uploads (migration 0038). */
export const createChunkedRepository = (db: Db) => ({
  insert: async (row: DavChunkedUploadsTable) => {
    await db.insertInto('dav_chunked_uploads').values(row).execute();
  },
  /** This person's upload named `transferId` (someone else's is not found). */
  find: (userId: string, transferId: string) =>
    db
      .selectFrom('dav_chunked_uploads')
      .selectAll()
      .where('user_id', '=', userId)
      .where('transfer_id', '=', transferId)
      .executeTakeFirst(),
  /** How many unfinished uploads this person has. */
  countOf: async (userId: string): Promise<number> => {
    const row = await db
      .selectFrom('dav_chunked_uploads')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  },
  touch: async (id: string, at: string, totalLength: number | null) => {
    await db
      .updateTable('dav_chunked_uploads')
      .set(totalLength === null ? { updated_at: at } : { updated_at: at, total_length: totalLength })
      .where('id', '=', id)
      .execute();
  },
  remove: async (id: string) => {
    await db.deleteFrom('dav_chunked_uploads').where('id', '=', id).execute();
  },
  /** Uploads with no activity since `before`. */
  idleSince: (before: string) =>
    db.selectFrom('dav_chunked_uploads').select('id').where('updated_at', '<', before).limit(1000).execute(),
});

export type ChunkedRepository = ReturnType<typeof createChunkedRepository>;

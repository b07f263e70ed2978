import { sql } from 'kysely';
import type { Db, Dialect } from '../../db';
import type { DavChunkedUploadsTable } from '../../db/schema';

/** Any constant: with a person's id, the PostgreSQL advisory lock that orders their new chunked uploads. */
const OPEN_LOCK = 7_340_038;

const countOf = async (db: Db, userId: string): Promise<number> => {
  const row = await db
    .selectFrom('dav_chunked_uploads')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
};

/** Plain queries on dav_chunked_uploads (migration 0038). */
export const createChunkedRepository = (db: Db, dialect: Dialect) => ({
  /**
   * Stores `row` unless its person already has `max` unfinished uploads; answers whether it was stored. The count
   * and the insert are one step per person (SQLite has one writer; PostgreSQL takes a transaction-scoped advisory
   * lock), so parallel requests cannot pass the limit between a count and an insert.
   */
  insertWithin: (row: DavChunkedUploadsTable, max: number): Promise<boolean> =>
    db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') {
        await sql`select pg_advisory_xact_lock(${OPEN_LOCK}, hashtext(${row.user_id}))`.execute(trx);
      }
      if ((await countOf(trx, row.user_id)) >= max) return false;
      await trx.insertInto('dav_chunked_uploads').values(row).execute();
      return true;
    }),
  /** This person's upload named `transferId` (someone else's is not found). */
  find: (userId: string, transferId: string) =>
    db
      .selectFrom('dav_chunked_uploads')
      .selectAll()
      .where('user_id', '=', userId)
      .where('transfer_id', '=', transferId)
      .executeTakeFirst(),
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

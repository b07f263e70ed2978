import { sql } from 'kysely';
import type { Db } from '../../db';

/** What the system status screen reads from the database: its size and what the stored files weigh. */
export const createSystemRepository = (db: Db) => ({
  /** PostgreSQL's own size of the current database (SQLite's is its files' size, read by the route). */
  async postgresSize(): Promise<number | null> {
    const { rows } = await sql<{ size: string | number }>`select pg_database_size(current_database()) as size`.execute(
      db,
    );
    return rows[0] ? Number(rows[0].size) : null;
  },

  /** Every file's count and bytes, and the bytes of those in the trash. */
  fileTotals: () =>
    db
      .selectFrom('files')
      .select((eb) => [
        eb.fn.countAll<string | number>().as('files'),
        eb.fn.sum<string | number>('size').as('bytes'),
        eb.fn.sum<string | number | null>(sql`case when trashed_at is null then 0 else size end`).as('trash'),
      ])
      .executeTakeFirst(),

  /** The bytes of every file's older versions. */
  versionTotals: () =>
    db
      .selectFrom('file_versions')
      .select((eb) => eb.fn.sum<string | number | null>('size').as('bytes'))
      .executeTakeFirst(),
});

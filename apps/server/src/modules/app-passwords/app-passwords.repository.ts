import type { Db } from '../../db';
import type { AppPasswordsTable } from '../../db/schema';
import { ACTOR_USER_COLUMNS } from '../../db/actor-columns';

export type AppPasswordRow = AppPasswordsTable & { owner_key: string };

const withOwner = (db: Db) =>
  db
    .selectFrom('app_passwords')
    .innerJoin('users', 'users.id', 'app_passwords.user_id')
    .selectAll('app_passwords')
    .select('users.owner_key as owner_key');

/** Plain queries on app_passwords (migration 0035). */
export const createAppPasswordsRepository = (db: Db) => ({
  insert: async (row: AppPasswordsTable) => {
    await db.insertInto('app_passwords').values(row).execute();
  },
  /** One person's passwords (userId) or everyone's, newest first. */
  list: (userId?: string): Promise<AppPasswordRow[]> => {
    let query = withOwner(db);
    if (userId !== undefined) query = query.where('app_passwords.user_id', '=', userId);
    return query.orderBy('app_passwords.created_at', 'desc').orderBy('app_passwords.id').execute();
  },
  findById: (id: string): Promise<AppPasswordRow | undefined> =>
    withOwner(db).where('app_passwords.id', '=', id).executeTakeFirst(),
  /** The live password with this hash, with its person (row of `users`), if the person is enabled. */
  findActiveByHash: (hash: string) =>
    db
      .selectFrom('app_passwords')
      .innerJoin('users', 'users.id', 'app_passwords.user_id')
      .select([
        'app_passwords.id as password_id',
        'app_passwords.last_used_at',
        'app_passwords.last_used_ip',
        ...ACTOR_USER_COLUMNS,
      ])
      .where('app_passwords.password_hash', '=', hash)
      .where('app_passwords.revoked_at', 'is', null)
      .executeTakeFirst(),
  revoke: async (id: string, at: string) => {
    await db
      .updateTable('app_passwords')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  },
  touch: async (id: string, at: string, ip: string | null) => {
    await db.updateTable('app_passwords').set({ last_used_at: at, last_used_ip: ip }).where('id', '=', id).execute();
  },
});

export type AppPasswordsRepository = ReturnType<typeof createAppPasswordsRepository>;

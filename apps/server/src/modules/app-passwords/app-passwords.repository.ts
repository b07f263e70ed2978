import type { Db } from '../../db';
import type { AppPasswordsTable } from '../../db/schema/accounts';

export type AppPasswordRow = AppPasswordsTable;

/** App passwords (table `app_passwords`), joined with their owner where a list or sign-in needs them. */
export const createAppPasswordsRepository = (db: Db) => ({
  insert: (row: AppPasswordRow) => db.insertInto('app_passwords').values(row).execute(),

  /** One user's passwords that still work, newest first. */
  listActive: (userId: string) =>
    db
      .selectFrom('app_passwords')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute(),

  /** Every user's passwords that still work (the admin list), newest first. */
  listAllActive: () =>
    db
      .selectFrom('app_passwords')
      .innerJoin('users', 'users.id', 'app_passwords.user_id')
      .selectAll('app_passwords')
      .select('users.owner_key')
      .where('app_passwords.revoked_at', 'is', null)
      .orderBy('app_passwords.created_at', 'desc')
      .orderBy('app_passwords.id')
      .execute(),

  findActive: (id: string) =>
    db
      .selectFrom('app_passwords')
      .innerJoin('users', 'users.id', 'app_passwords.user_id')
      .selectAll('app_passwords')
      .select('users.owner_key')
      .where('app_passwords.id', '=', id)
      .where('app_passwords.revoked_at', 'is', null)
      .executeTakeFirst(),

  /** The password with this hash that still works, with its owner's row. */
  findActiveByHash: (hash: string) =>
    db
      .selectFrom('app_passwords')
      .innerJoin('users', 'users.id', 'app_passwords.user_id')
      .selectAll('users')
      .select(['app_passwords.id as app_password_id', 'app_passwords.last_used_at', 'app_passwords.last_used_ip'])
      .where('app_passwords.password_hash', '=', hash)
      .where('app_passwords.revoked_at', 'is', null)
      .executeTakeFirst(),

  revoke: (id: string, now: string) =>
    db
      .updateTable('app_passwords')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute(),

  touch: (id: string, now: string, ip: string | null) =>
    db.updateTable('app_passwords').set({ last_used_at: now, last_used_ip: ip }).where('id', '=', id).execute(),
});

export type AppPasswordsRepository = ReturnType<typeof createAppPasswordsRepository>;

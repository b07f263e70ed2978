import { sql } from 'kysely';
import type { Db } from '../../db';
import type { UserRow } from './users.repository';

/** A local account's user row with its credentials. */
export type LocalAccount = UserRow & { username: string; password_hash: string | null };

/** The passwords of local accounts (table `local_credentials`, migration 0032); no product rules here. */
export const createLocalCredentialsRepository = (db: Db) => ({
  /** The local account whose username, or whose email, is `login` (any letter case). */
  async findByLogin(login: string): Promise<LocalAccount | undefined> {
    const key = login.trim().toLowerCase();
    const base = db
      .selectFrom('local_credentials')
      .innerJoin('users', 'users.id', 'local_credentials.user_id')
      .selectAll('users')
      .select(['local_credentials.username', 'local_credentials.password_hash']);
    return (
      (await base.where('local_credentials.username_key', '=', key).executeTakeFirst()) ??
      (await base
        .where(sql<string>`lower(users.email)`, '=', key)
        .orderBy('users.created_at')
        .executeTakeFirst())
    );
  },

  findByUserId: (userId: string) =>
    db.selectFrom('local_credentials').selectAll().where('user_id', '=', userId).executeTakeFirst(),

  usernameTaken: async (username: string) =>
    (await db
      .selectFrom('local_credentials')
      .select('user_id')
      .where('username_key', '=', username.toLowerCase())
      .executeTakeFirst()) !== undefined,

  async setPassword(userId: string, passwordHash: string, now: string): Promise<void> {
    await db
      .updateTable('local_credentials')
      .set({ password_hash: passwordHash, password_changed_at: now })
      .where('user_id', '=', userId)
      .execute();
  },
});

export type LocalCredentialsRepository = ReturnType<typeof createLocalCredentialsRepository>;

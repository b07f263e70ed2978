import { randomUUID } from 'node:crypto';
import type { Db } from '../../db';
import type { UsersTable } from '../../db/schema';
import { iso, type Clock } from '../../lib/time';

export type UserRow = UsersTable;
/** A new user's fields; the rest start empty. */
type NewUser = Omit<
  UserRow,
  'id' | 'created_at' | 'updated_at' | 'first_login_completed_at' | 'disabled_at' | 'quota_bytes' | 'last_sign_in_at'
>;

/** Plain queries on users; no product rules here. */
export const createUsersRepository = (db: Db, clock: Clock) => {
  const newRow = (values: NewUser): UserRow => {
    const now = iso(clock.now());
    return {
      ...values,
      id: randomUUID(),
      created_at: now,
      updated_at: now,
      first_login_completed_at: null,
      disabled_at: null,
      quota_bytes: null,
      last_sign_in_at: null,
    };
  };
  return {
    findById: (id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),

    findByOwnerKey: (ownerKey: string) =>
      db.selectFrom('users').selectAll().where('owner_key', '=', ownerKey).executeTakeFirst(),

    findByOidcIdentity: (issuer: string, subject: string) =>
      db
        .selectFrom('users')
        .selectAll()
        .where('oidc_issuer', '=', issuer)
        .where('oidc_subject', '=', subject)
        .executeTakeFirst(),

    async insert(values: NewUser): Promise<UserRow> {
      const row = newRow(values);
      await db.insertInto('users').values(row).execute();
      return row;
    },

    /**
     * A user with local credentials, both rows or neither (one transaction): a username or owner key taken at the same
     * moment by someone else leaves nothing behind and answers which one was taken.
     */
    async insertLocal(
      values: NewUser,
      credential: { username: string; passwordHash: string | null },
    ): Promise<UserRow | 'username-taken' | 'owner-key-taken'> {
      const row = newRow(values);
      const now = row.created_at;
      const usernameKey = credential.username.toLowerCase();
      try {
        await db.transaction().execute(async (trx) => {
          await trx.insertInto('users').values(row).execute();
          await trx
            .insertInto('local_credentials')
            .values({
              user_id: row.id,
              username: credential.username,
              username_key: usernameKey,
              password_hash: credential.passwordHash,
              password_changed_at: credential.passwordHash ? now : null,
            })
            .execute();
        });
        return row;
      } catch (error) {
        const taken = await db
          .selectFrom('local_credentials')
          .select('user_id')
          .where('username_key', '=', usernameKey)
          .executeTakeFirst();
        if (taken) return 'username-taken';
        const keyTaken = await db
          .selectFrom('users')
          .select('id')
          .where('owner_key', '=', row.owner_key)
          .executeTakeFirst();
        if (keyTaken) return 'owner-key-taken';
        throw error;
      }
    },

    /** Records that the user's first sign-in was greeted; the first call wins, later ones change nothing. */
    async completeFirstLogin(id: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ first_login_completed_at: iso(clock.now()) })
        .where('id', '=', id)
        .where('first_login_completed_at', 'is', null)
        .execute();
    },

    /** Records a successful sign-in (the admin console's "last sign-in"). */
    async recordSignIn(id: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ last_sign_in_at: iso(clock.now()) })
        .where('id', '=', id)
        .execute();
    },

    async update(id: string, values: Partial<Omit<UserRow, 'id' | 'created_at'>>): Promise<void> {
      await db
        .updateTable('users')
        .set({ ...values, updated_at: iso(clock.now()) })
        .where('id', '=', id)
        .execute();
    },
  };
};

export type UsersRepository = ReturnType<typeof createUsersRepository>;

import { sql } from 'kysely';
import type { Db } from '../../db';
import { iso, type Clock } from '../../lib/time';

const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** A user row with what the admin console shows next to it. */
export interface AdminUserRow {
  id: string;
  owner_key: string;
  name: string | null;
  nickname: string | null;
  email: string | null;
  role: 'user' | 'admin';
  disabled_at: string | null;
  quota_bytes: number | null;
  last_sign_in_at: string | null;
  created_at: string;
  used_bytes: number;
  sessions: number;
}

/** Plain queries for the users screen. */
export const createAdminUsersRepository = (db: Db, clock: Clock) => {
  const base = () => {
    const now = iso(clock.now());
    return db
      .selectFrom('users')
      .select([
        'users.id',
        'users.owner_key',
        'users.name',
        'users.nickname',
        'users.email',
        'users.role',
        'users.disabled_at',
        'users.quota_bytes',
        'users.last_sign_in_at',
        'users.created_at',
      ])
      .select((eb) => [
        eb
          .selectFrom('files')
          // The quota's count: files (trashed ones too) and their older versions.
          .select(
            sql<number>`coalesce(sum(files.size), 0) + coalesce((select sum(v.size) from file_versions v join files f on f.id = v.file_id where f.owner_key = users.owner_key and f.workspace_id is null), 0)`.as(
              'used',
            ),
          )
          .whereRef('files.owner_key', '=', 'users.owner_key')
          .where('files.workspace_id', 'is', null)
          .as('used_bytes'),
        eb
          .selectFrom('sessions')
          .select(sql<number>`count(*)`.as('n'))
          .whereRef('sessions.user_id', '=', 'users.id')
          .where('sessions.expires_at', '>', now)
          .as('sessions'),
      ]);
  };
  const normalise = (row: {
    used_bytes: number | string | null;
    sessions: number | string | null;
    quota_bytes: number | string | null;
  }) => ({
    used_bytes: Number(row.used_bytes ?? 0),
    sessions: Number(row.sessions ?? 0),
    quota_bytes: row.quota_bytes === null ? null : Number(row.quota_bytes),
  });

  return {
    /** Users ordered by owner key, after `after`, matching `q` (owner key, name, nickname or email contain it). */
    async list(options: {
      q?: string | undefined;
      after?: string | undefined;
      limit: number;
    }): Promise<AdminUserRow[]> {
      let query = base();
      const needle = options.q?.toLowerCase();
      if (needle) {
        const contains = `%${likeLiteral(needle)}%`;
        query = query.where((eb) =>
          eb.or(
            (['users.owner_key', 'users.name', 'users.nickname', 'users.email'] as const).map((field) =>
              eb(sql`lower(coalesce(${sql.ref(field)}, ''))`, 'like', sql`${contains} escape '\\'`),
            ),
          ),
        );
      }
      if (options.after !== undefined) query = query.where('users.owner_key', '>', options.after);
      const rows = await query.orderBy('users.owner_key').limit(options.limit).execute();
      return rows.map((row) => ({ ...row, ...normalise(row) }));
    },

    async findByOwnerKey(ownerKey: string): Promise<AdminUserRow | undefined> {
      const row = await base().where('users.owner_key', '=', ownerKey).executeTakeFirst();
      return row && { ...row, ...normalise(row) };
    },

    /** The user's own quota, or null (the default applies; also for an unknown owner key). */
    async quotaOf(ownerKey: string): Promise<number | null> {
      const row = await db
        .selectFrom('users')
        .select('quota_bytes')
        .where('owner_key', '=', ownerKey)
        .executeTakeFirst();
      return row?.quota_bytes === null || row?.quota_bytes === undefined ? null : Number(row.quota_bytes);
    },

    async update(
      id: string,
      values: { role?: 'user' | 'admin'; disabled_at?: string | null; quota_bytes?: number | null },
    ): Promise<void> {
      await db
        .updateTable('users')
        .set({ ...values, updated_at: iso(clock.now()) })
        .where('id', '=', id)
        .execute();
    },
  };
};

export type AdminUsersRepository = ReturnType<typeof createAdminUsersRepository>;

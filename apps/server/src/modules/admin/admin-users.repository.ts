import { sql } from 'kysely';
import type { Db } from '../../db';
import { iso, type Clock } from '../../lib/time';
import { personalSpaceKey } from '../../auth/policies/people';

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
  /** A local account (it has a username and password here). */
  local_account: boolean;
}

/** What `transferPersonalSpace` moved. */
export interface TransferCounts {
  files: number;
  folders: number;
  /** The files' bytes and their older versions', trashed ones included: what now counts against the recipient. */
  bytes: number;
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
        eb
          .selectFrom('local_credentials')
          .select(sql<number>`count(*)`.as('n'))
          .whereRef('local_credentials.user_id', '=', 'users.id')
          .as('local_account'),
      ]);
  };
  const normalise = (row: {
    used_bytes: number | string | null;
    sessions: number | string | null;
    quota_bytes: number | string | null;
    local_account: number | string | null;
  }) => ({
    local_account: Number(row.local_account ?? 0) > 0,
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

    /**
     * Moves everything of `from`'s personal space — files and folders, trashed ones too, with their versions — into a
     * new folder of `to`'s personal space (one transaction). The folder's name is the first of `folder.names` (in
     * order) not taken in `to`'s root. The content of `from`'s root goes into it; the search documents follow through
     * their triggers (migrations 0017, 0024); shares the recipient held on what they now own go (they own it), the
     * people found in `from`'s photos too (People is per space: the recipient's own setting decides what is analysed
     * there). `from`'s empty root stays. Answers the folder's id and name and what moved.
     */
    async transferPersonalSpace(input: {
      from: string;
      to: string;
      toUserId: string;
      toRootId: string;
      folder: { id: string; names: (taken: (nameKey: string) => boolean) => { name: string; nameKey: string } };
      createdBy: string;
    }): Promise<TransferCounts & { folderName: string }> {
      const now = iso(clock.now());
      return db.transaction().execute(async (trx) => {
        const fromRoot = await trx
          .selectFrom('folders')
          .select('id')
          .where('workspace_id', 'is', null)
          .where('owner_key', '=', input.from)
          .where('parent_id', 'is', null)
          .executeTakeFirst();
        const taken = new Set(
          (await trx.selectFrom('folders').select('name_key').where('parent_id', '=', input.toRootId).execute()).map(
            (row) => row.name_key,
          ),
        );
        const { name, nameKey } = input.folder.names((key) => taken.has(key));
        await trx
          .insertInto('folders')
          .values({
            id: input.folder.id,
            workspace_id: null,
            owner_key: input.to,
            parent_id: input.toRootId,
            name,
            name_key: nameKey,
            created_by: input.createdBy,
            created_at: now,
            updated_at: now,
            trashed_at: null,
            trashed_by: null,
            trash_root_id: null,
          })
          .execute();
        const movedFiles = trx
          .selectFrom('files')
          .select('id')
          .where('workspace_id', 'is', null)
          .where('owner_key', '=', input.from);
        const totals = await trx
          .selectFrom('files')
          .select([
            sql<number>`count(*)`.as('files'),
            sql<number>`coalesce(sum(size), 0)`.as('bytes'),
            sql<number>`coalesce((select sum(v.size) from file_versions v where v.file_id in (${movedFiles})), 0)`.as(
              'versionBytes',
            ),
          ])
          .where('workspace_id', 'is', null)
          .where('owner_key', '=', input.from)
          .executeTakeFirstOrThrow();
        const folders = await trx
          .updateTable('folders')
          .set({ owner_key: input.to })
          .where('workspace_id', 'is', null)
          .where('owner_key', '=', input.from)
          .where('parent_id', 'is not', null)
          .executeTakeFirst();
        await trx
          .updateTable('files')
          .set({ owner_key: input.to })
          .where('workspace_id', 'is', null)
          .where('owner_key', '=', input.from)
          .execute();
        if (fromRoot) {
          await trx
            .updateTable('folders')
            .set({ parent_id: input.folder.id })
            .where('parent_id', '=', fromRoot.id)
            .execute();
          await trx
            .updateTable('files')
            .set({ folder_id: input.folder.id })
            .where('folder_id', '=', fromRoot.id)
            .execute();
        }
        // The recipient owns these now: a share to them on any of them would say otherwise.
        const moved = (column: 'file_id' | 'folder_id') =>
          column === 'file_id'
            ? trx.selectFrom('files').select('id').where('workspace_id', 'is', null).where('owner_key', '=', input.to)
            : trx
                .selectFrom('folders')
                .select('id')
                .where('workspace_id', 'is', null)
                .where('owner_key', '=', input.to);
        await trx
          .deleteFrom('shares')
          .where('grantee_user_id', '=', input.toUserId)
          .where((eb) => eb.or([eb('file_id', 'in', moved('file_id')), eb('folder_id', 'in', moved('folder_id'))]))
          .execute();
        const space = personalSpaceKey(input.from);
        await trx.deleteFrom('faces').where('space_key', '=', space).execute();
        await trx.deleteFrom('people').where('space_key', '=', space).execute();
        await trx.deleteFrom('people_settings').where('space_key', '=', space).execute();
        return {
          folderName: name,
          files: Number(totals.files),
          folders: Number(folders.numUpdatedRows),
          bytes: Number(totals.bytes) + Number(totals.versionBytes),
        };
      });
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

import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db';
import { folderDescendants } from '../../db/folder-walk';
import type { UserActor } from '../../auth/actor';
import { readableScope, shareReaches } from '../../auth/access-facts';
import { workspaceUsedBytes } from '../files';

/** A user's display name in SQL: name, else nickname, else owner key (`u` aliases `users`). */
const userName = sql<string>`coalesce(u.name, u.nickname, u.owner_key)`;

/** An audit entry of a feed, with its actor and its item as they are now. */
export interface FeedRow {
  id: string;
  at: string;
  action: string;
  details: string | null;
  actor: string | null;
  actor_id: string | null;
  actor_name: string | null;
  file_id: string | null;
  file_name: string | null;
  file_folder: string | null;
  file_trashed: string | null;
  folder_id: string | null;
  folder_name: string | null;
  folder_parent: string | null;
  folder_trashed: string | null;
}

/** Where a feed looks: one workspace, or the folders of a subtree. */
export type FeedScope = { workspaceId: string } | { folderIds: string[] };

export interface FeedFilter {
  actions: readonly string[];
  actorId?: string | undefined;
  before?: { at: string; id: string } | undefined;
}

/** A file or folder row of Starred, Recent and the home, with where it is. */
export interface ItemRow {
  kind: 'file' | 'folder';
  id: string;
  name: string;
  content_type: string | null;
  size: number | string | null;
  updated_at: string;
  folder_id: string | null;
  workspace_id: string | null;
  workspace_name: string | null;
  own: boolean | number;
  folder_readable: boolean | number;
  starred: boolean | number;
  starred_at?: string;
}

/** The subject condition of a feed: entries about files and folders inside the scope (where they are now). */
function scopeCondition(scope: FeedScope): RawBuilder<boolean> {
  if ('workspaceId' in scope) {
    return sql<boolean>`(a.subject in (select ${sql.lit('file:')} || id from files where workspace_id = ${scope.workspaceId})
      or a.subject in (select ${sql.lit('folder:')} || id from folders where workspace_id = ${scope.workspaceId}))`;
  }
  const ids = sql.join(scope.folderIds.map((id) => sql`${id}`));
  return sql<boolean>`(a.subject in (select ${sql.lit('file:')} || id from files where folder_id in (${ids}))
    or a.subject in (select ${sql.lit('folder:')} || id from folders where id in (${ids})))`;
}

/**
 * The queries of activity, Starred, Recent and the home (docs/PRODUCT.md#activity, #dashboard-home, #starred-and-recent).
 * Feeds read the audit log (`audit_log.subject`, migration 0022); reach is `readableScope` of `auth/access-facts.ts`.
 */
export const createActivityRepository = (db: Db) => ({
  /** Workspace `id` with `userId`'s membership role (null: not a member); undefined: no such workspace. */
  async workspace(id: string, userId: string) {
    const row = await db
      .selectFrom('workspaces as w')
      .leftJoin('workspace_members as m', (join) =>
        join.onRef('m.workspace_id', '=', 'w.id').on('m.user_id', '=', userId),
      )
      .select(['w.id', 'm.role'])
      .where('w.id', '=', id)
      .executeTakeFirst();
    return row && { id: row.id, memberRole: row.role ?? null };
  },

  async folder(id: string) {
    return db
      .selectFrom('folders')
      .select(['id', 'workspace_id', 'owner_key', 'parent_id', 'trashed_at'])
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /** Folder `id` and every folder below it, the trashed ones too. */
  async subtree(id: string): Promise<string[]> {
    return [id, ...(await folderDescendants(db, id, true)).map((folder) => folder.id)];
  },

  /** One page of a feed, newest first. */
  async feed(scope: FeedScope, filter: FeedFilter, limit: number): Promise<FeedRow[]> {
    if (filter.actions.length === 0) return [];
    const actions = sql.join(filter.actions.map((action) => sql`${action}`));
    const actor =
      filter.actorId === undefined
        ? sql``
        : sql`and a.actor = (select owner_key from users where id = ${filter.actorId})`;
    const before = filter.before;
    const cursor =
      before === undefined ? sql`` : sql`and (a.at < ${before.at} or (a.at = ${before.at} and a.id < ${before.id}))`;
    const { rows } = await sql<FeedRow>`
      select a.id, a.at, a.action, a.details, a.actor, u.id as actor_id, ${userName} as actor_name,
        f.id as file_id, f.file_name, f.folder_id as file_folder, f.trashed_at as file_trashed,
        d.id as folder_id, d.name as folder_name, d.parent_id as folder_parent, d.trashed_at as folder_trashed
      from audit_log a
      left join users u on u.owner_key = a.actor
      left join files f on a.subject like 'file:%' and f.id = substr(a.subject, 6)
      left join folders d on a.subject like 'folder:%' and d.id = substr(a.subject, 8)
      where ${scopeCondition(scope)} and a.action in (${actions}) ${actor} ${cursor}
      order by a.at desc, a.id desc
      limit ${limit}
    `.execute(db);
    return rows;
  },

  /** Everyone who acted in a feed's scope (any action it shows), by name. */
  async people(scope: FeedScope, actions: readonly string[]): Promise<{ id: string; name: string }[]> {
    if (actions.length === 0) return [];
    const list = sql.join(actions.map((action) => sql`${action}`));
    const { rows } = await sql<{ id: string; name: string }>`
      select distinct u.id, ${userName} as name
      from audit_log a join users u on u.owner_key = a.actor
      where ${scopeCondition(scope)} and a.action in (${list})
      order by name, u.id
      limit 200
    `.execute(db);
    return rows;
  },

  async addStar(row: {
    id: string;
    user_id: string;
    file_id: string | null;
    folder_id: string | null;
    created_at: string;
  }) {
    await db
      .insertInto('stars')
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(row.file_id === null ? ['user_id', 'folder_id'] : ['user_id', 'file_id']).doNothing(),
      )
      .execute();
  },

  async removeStar(userId: string, kind: 'file' | 'folder', id: string) {
    await db
      .deleteFrom('stars')
      .where('user_id', '=', userId)
      .where(kind === 'file' ? 'file_id' : 'folder_id', '=', id)
      .execute();
  },

  /** Files the actor can read, out of the trash, newest content first (Recent). */
  async recent(actor: UserActor, limit: number, before?: { at: string; id: string }): Promise<ItemRow[]> {
    const scope = readableScope(actor);
    const cursor =
      before === undefined
        ? sql``
        : sql`and (f.upload_date < ${before.at} or (f.upload_date = ${before.at} and f.id < ${before.id}))`;
    const { rows } = await sql<ItemRow>`
      with recursive ${scope.ctes}
      select 'file' as kind, f.id, f.file_name as name, f.content_type, f.size, f.upload_date as updated_at,
        f.folder_id, f.workspace_id, w.name as workspace_name, ${scope.inOwnSpaces('f')} as own,
        (f.folder_id in (select id from readable_shared_tree)) as folder_readable,
        exists (select 1 from stars s where s.user_id = ${actor.id} and s.file_id = f.id) as starred
      from files f left join workspaces w on w.id = f.workspace_id
      where f.trashed_at is null and ${scope.file('f')} ${cursor}
      order by f.upload_date desc, f.id desc
      limit ${limit}
    `.execute(db);
    return rows;
  },

  /** What the actor starred and can still read, out of the trash, newest star first. */
  async starred(actor: UserActor, limit: number): Promise<ItemRow[]> {
    const scope = readableScope(actor);
    const { rows } = await sql<ItemRow>`
      with recursive ${scope.ctes}
      select * from (
        select 'file' as kind, f.id, f.file_name as name, f.content_type, f.size, f.upload_date as updated_at,
          f.folder_id, f.workspace_id, w.name as workspace_name, ${scope.inOwnSpaces('f')} as own,
          (f.folder_id in (select id from readable_shared_tree)) as folder_readable,
          ${sql.lit(1)} as starred, s.created_at as starred_at
        from stars s join files f on f.id = s.file_id left join workspaces w on w.id = f.workspace_id
        where s.user_id = ${actor.id} and f.trashed_at is null and ${scope.file('f')}
        union all
        select 'folder' as kind, d.id, d.name, null, null, d.created_at,
          d.id, d.workspace_id, w.name, ${scope.inOwnSpaces('d')}, (1 = 1), ${sql.lit(1)}, s.created_at
        from stars s join folders d on d.id = s.folder_id left join workspaces w on w.id = d.workspace_id
        where s.user_id = ${actor.id} and d.trashed_at is null and ${scope.folder('d')}
      ) items
      order by starred_at desc, id desc
      limit ${limit}
    `.execute(db);
    return rows;
  },

  /** How many files (and bytes) the actor can read, out of the trash, in every space. */
  async reach(actor: UserActor): Promise<{ files: number; bytes: number }> {
    const scope = readableScope(actor);
    const { rows } = await sql<{ files: number | string; bytes: number | string | null }>`
      with recursive ${scope.ctes}
      select count(*) as files, sum(f.size) as bytes from files f where f.trashed_at is null and ${scope.file('f')}
    `.execute(db);
    return { files: Number(rows[0]?.files ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
  },

  /** The actor's workspaces with their live file counts. */
  async workspaces(userId: string) {
    const rows = await db
      .selectFrom('workspace_members as m')
      .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
      .select(['w.id', 'w.name', 'm.role', 'w.root_folder_id'])
      .select((eb) =>
        eb
          .selectFrom('files')
          .select((inner) => inner.fn.countAll<number | string>().as('n'))
          .whereRef('files.workspace_id', '=', 'w.id')
          .where('files.trashed_at', 'is', null)
          .as('files'),
      )
      .where('m.user_id', '=', userId)
      .orderBy('w.name')
      .orderBy('w.id')
      .execute();
    return rows.map((row) => ({ ...row, files: Number(row.files ?? 0) }));
  },

  /** Shares reaching `userId` made by someone else, on items out of the trash, newest first. */
  async sharedLately(userId: string, limit: number) {
    const { rows } = await sql<{
      file_id: string | null;
      folder_id: string | null;
      file_name: string | null;
      file_folder: string | null;
      folder_name: string | null;
      role: 'viewer' | 'editor';
      shared_by: string | null;
      shared_at: string;
    }>`
      select s.file_id, s.folder_id, f.file_name, f.folder_id as file_folder, d.name as folder_name, s.role,
        ${userName} as shared_by, s.created_at as shared_at
      from shares s
      left join files f on f.id = s.file_id
      left join folders d on d.id = s.folder_id
      left join users u on u.id = s.created_by
      where ${shareReaches(userId, 's')} and (s.created_by is null or s.created_by <> ${userId})
        and (f.id is not null and f.trashed_at is null or d.id is not null and d.trashed_at is null)
      order by s.created_at desc, s.id desc
      limit ${limit}
    `.execute(db);
    return rows;
  },

  /** Bytes a workspace uses (its files, trashed ones and older versions included: its quota's count). */
  usedBytes: (workspaceId: string): Promise<number> => workspaceUsedBytes(db, workspaceId),

  async countStars(userId: string): Promise<number> {
    const row = await db
      .selectFrom('stars')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },
});

export type ActivityRepository = ReturnType<typeof createActivityRepository>;

import { sql } from 'kysely';
import type { Db } from '../../db';
import { folderAncestors } from '../../db/folder-walk';

/** A user's display name in SQL: name, else nickname, else owner key (`u` aliases `users`). */
const userName = sql<string | null>`coalesce(u.name, u.nickname, u.owner_key)`;

/** A file's activity entry with the actor's display name. */
export interface ActivityRow {
  action: string;
  at: string;
  actor: string | null;
  actor_name: string | null;
  details: string | null;
}

/** An access entry's raw facts: a membership or a share, with the names the panel shows. */
export interface AccessRow {
  kind: 'member' | 'share';
  principal_type: 'user' | 'workspace';
  principal_id: string;
  principal_name: string | null;
  role: 'owner' | 'editor' | 'viewer';
  /** A share on a folder: that folder (null: on the file, or a membership). */
  folder_id: string | null;
}

/** The queries of a file's details panel (`GET /api/files/{id}/details`); decisions stay in the service. */
export const createFileDetailsRepository = (db: Db) => ({
  /** How many older versions file `id` keeps, their bytes, and the oldest one's date. */
  async versionStats(id: string): Promise<{ count: number; bytes: number; oldest: string | null }> {
    const row = await db
      .selectFrom('file_versions')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('count'),
        eb.fn.sum<number | string | null>('size').as('bytes'),
        eb.fn.min<string | null>('created_at').as('oldest'),
      ])
      .where('file_id', '=', id)
      .executeTakeFirst();
    return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0), oldest: row?.oldest ?? null };
  },

  /** The folders from `folderId` up to its space's root, root first (one bounded recursive query). */
  async folderPath(folderId: string): Promise<{ id: string; name: string }[]> {
    return (await folderAncestors(db, folderId)).reverse().map(({ id, name }) => ({ id, name }));
  },

  async workspaceName(id: string): Promise<string | undefined> {
    const row = await db.selectFrom('workspaces').select('name').where('id', '=', id).executeTakeFirst();
    return row?.name;
  },

  /** The person whose personal space holds a file. */
  async owner(ownerKey: string): Promise<{ id: string; name: string | null } | undefined> {
    return db
      .selectFrom('users as u')
      .select(['u.id', userName.as('name')])
      .where('u.owner_key', '=', ownerKey)
      .executeTakeFirst();
  },

  /** The members of a workspace and the shares on file `fileId` or on any of `folderIds`, oldest first. */
  async access(workspaceId: string | null, fileId: string, folderIds: string[]): Promise<AccessRow[]> {
    const members: AccessRow[] =
      workspaceId === null
        ? []
        : (
            await db
              .selectFrom('workspace_members as m')
              .innerJoin('users as u', 'u.id', 'm.user_id')
              .select(['m.user_id', 'm.role', userName.as('name')])
              .where('m.workspace_id', '=', workspaceId)
              .orderBy('m.added_at')
              .orderBy('u.owner_key')
              .execute()
          ).map((row) => ({
            kind: 'member',
            principal_type: 'user',
            principal_id: row.user_id,
            principal_name: row.name,
            role: row.role,
            folder_id: null,
          }));
    const shares = await db
      .selectFrom('shares as s')
      .leftJoin('users as u', 'u.id', 's.grantee_user_id')
      .leftJoin('workspaces as w', 'w.id', 's.grantee_workspace_id')
      .select(['s.grantee_user_id', 's.grantee_workspace_id', 's.role', 's.folder_id', userName.as('user_name')])
      .select('w.name as workspace_name')
      .where((eb) =>
        folderIds.length === 0
          ? eb('s.file_id', '=', fileId)
          : eb.or([eb('s.file_id', '=', fileId), eb('s.folder_id', 'in', folderIds)]),
      )
      .orderBy('s.created_at')
      .orderBy('s.id')
      .execute();
    return [
      ...members,
      ...shares.map((row): AccessRow => ({
        kind: 'share',
        principal_type: row.grantee_user_id === null ? 'workspace' : 'user',
        principal_id: row.grantee_user_id ?? row.grantee_workspace_id ?? '',
        principal_name: row.grantee_user_id === null ? row.workspace_name : row.user_name,
        role: row.role,
        folder_id: row.folder_id,
      })),
    ];
  },

  /** When `subject` (`file:<id>`) was first uploaded, as the audit log remembers it (null: no entry kept). */
  async uploadedAt(subject: string): Promise<string | null> {
    const row = await db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.min<string | null>('at').as('at'))
      .where('subject', '=', subject)
      .where('action', '=', 'file.uploaded')
      .executeTakeFirst();
    return row?.at ?? null;
  },

  /** Audit entries about `subject` (`file:<id>`), newest first; `hideActions`: action prefixes left out. */
  async activity(subject: string, limit: number, hideActions: string[]): Promise<ActivityRow[]> {
    let query = db
      .selectFrom('audit_log as a')
      .leftJoin('users as u', 'u.owner_key', 'a.actor')
      .select(['a.action', 'a.at', 'a.actor', 'a.details', userName.as('actor_name')])
      .where('a.subject', '=', subject);
    for (const prefix of hideActions) query = query.where('a.action', 'not like', `${prefix}%`);
    return query.orderBy('a.at', 'desc').orderBy('a.id', 'desc').limit(limit).execute();
  },
});

export type FileDetailsRepository = ReturnType<typeof createFileDetailsRepository>;

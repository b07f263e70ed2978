import { sql } from 'kysely';
import type { LockTarget, ReachingLock } from '../../auth/policies/write-lock';
import type { Db } from '../../db';
import { folderAncestorsCte, folderDescendantsCte } from '../../db/folder-walk';
import type { DavLocksTable } from '../../db/schema';

export type DavLockRow = DavLocksTable;

/** How many ids one statement of `forget` names. */
const CHUNK = 500;

/** Dead properties and locks of the WebDAV tree (migration 0036). */
export const createDavRepository = (db: Db) => ({
  /** The dead properties of a file or folder: `ns name` → value XML. */
  async properties(resourceId: string): Promise<Map<string, string>> {
    const rows = await db
      .selectFrom('dav_properties')
      .select(['ns', 'name', 'value'])
      .where('resource_id', '=', resourceId)
      .execute();
    return new Map(rows.map((row) => [`${row.ns} ${row.name}`, row.value]));
  },
  /** The dead properties of many files and folders at once (a PROPFIND's children): id → `ns name` → value XML. */
  async propertiesOf(resourceIds: string[]): Promise<Map<string, Map<string, string>>> {
    const byId = new Map<string, Map<string, string>>();
    if (resourceIds.length === 0) return byId;
    const rows = await db
      .selectFrom('dav_properties')
      .select(['resource_id', 'ns', 'name', 'value'])
      .where('resource_id', 'in', resourceIds)
      .execute();
    for (const row of rows) {
      const props = byId.get(row.resource_id) ?? new Map<string, string>();
      props.set(`${row.ns} ${row.name}`, row.value);
      byId.set(row.resource_id, props);
    }
    return byId;
  },
  /** Whether any file or folder has a dead property (the table is usually empty: a PROPFIND then skips its look-ups). */
  async anyProperties(): Promise<boolean> {
    const row = await db.selectFrom('dav_properties').select('resource_id').limit(1).executeTakeFirst();
    return row !== undefined;
  },
  /** Sets and removes dead properties in one transaction. */
  async patchProperties(
    resourceId: string,
    ops: { action: 'set' | 'remove'; ns: string; name: string; value: string }[],
  ): Promise<void> {
    await db.transaction().execute(async (trx) => {
      for (const op of ops) {
        if (op.action === 'remove') {
          await trx
            .deleteFrom('dav_properties')
            .where('resource_id', '=', resourceId)
            .where('ns', '=', op.ns)
            .where('name', '=', op.name)
            .execute();
        } else {
          await trx
            .insertInto('dav_properties')
            .values({ resource_id: resourceId, ns: op.ns, name: op.name, value: op.value })
            .onConflict((oc) => oc.columns(['resource_id', 'ns', 'name']).doUpdateSet({ value: op.value }))
            .execute();
        }
      }
    });
  },
  /** Copies the dead properties of one resource to another (COPY). */
  async copyProperties(fromId: string, toId: string): Promise<void> {
    const rows = await db.selectFrom('dav_properties').selectAll().where('resource_id', '=', fromId).execute();
    if (rows.length === 0) return;
    await db
      .insertInto('dav_properties')
      .values(rows.map((row) => ({ ...row, resource_id: toId })))
      .onConflict((oc) => oc.columns(['resource_id', 'ns', 'name']).doNothing())
      .execute();
  },
  /** The live locks on any of `resourceIds` at `now`. */
  locksOn: (resourceIds: string[], now: string): Promise<DavLockRow[]> =>
    resourceIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('dav_locks')
          .selectAll()
          .where('resource_id', 'in', resourceIds)
          .where('expires_at', '>', now)
          .execute(),
  findLock: (token: string) => db.selectFrom('dav_locks').selectAll().where('token', '=', token).executeTakeFirst(),
  insertLock: async (row: DavLockRow) => {
    await db.insertInto('dav_locks').values(row).execute();
  },
  refreshLock: async (token: string, timeoutSeconds: number, expiresAt: string) => {
    await db
      .updateTable('dav_locks')
      .set({ timeout_seconds: timeoutSeconds, expires_at: expiresAt })
      .where('token', '=', token)
      .execute();
  },
  deleteLock: async (token: string) => {
    await db.deleteFrom('dav_locks').where('token', '=', token).execute();
  },
  /**
   * The live locks reaching a change of `target` (`auth/policies/write-lock.ts`): on it, depth-infinity locks on the
   * folders above it, and for a folder every lock on a folder or live file inside it (one bounded recursive query).
   */
  async locksReaching(target: LockTarget, now: string): Promise<ReachingLock[]> {
    const reach =
      'file' in target
        ? target.folderId === null
          ? { ctes: sql``, where: sql`l.resource_id = ${target.file}` }
          : {
              ctes: sql`with recursive ${folderAncestorsCte([target.folderId])}`,
              where: sql`(l.resource_id = ${target.file}
                or (l.depth = 'infinity' and l.resource_id in (select id from folder_up)))`,
            }
        : {
            ctes: sql`with recursive ${folderAncestorsCte([target.folder])}, ${folderDescendantsCte(target.folder, false)}`,
            where: sql`((l.depth = 'infinity' and l.resource_id in (select id from folder_up))
              or l.resource_id in (select id from folder_down)
              or l.resource_id in (select fd.id from files fd
                where fd.folder_id in (select id from folder_down) and fd.trashed_at is null))`,
          };
    const { rows } = await sql<{
      resource_id: string;
      user_id: string;
      expires_at: string;
      holder: string;
      file_name: string | null;
      folder_name: string | null;
    }>`
      ${reach.ctes}
      select l.resource_id, l.user_id, l.expires_at, coalesce(u.name, u.owner_key) as holder,
        f.file_name, d.name as folder_name
      from dav_locks l
      join users u on u.id = l.user_id
      left join files f on f.id = l.resource_id
      left join folders d on d.id = l.resource_id
      where l.expires_at > ${now} and ${reach.where}
      order by l.created_at, l.token
    `.execute(db);
    return rows.map((row) => ({
      resourceId: row.resource_id,
      resourceKind: row.file_name === null ? 'folder' : 'file',
      resourceName: row.file_name ?? row.folder_name ?? row.resource_id,
      userId: row.user_id,
      holderName: row.holder,
      expiresAt: row.expires_at,
    }));
  },
  /** Forgets the locks and dead properties of files and folders purged for good. */
  async forget(resourceIds: readonly string[]): Promise<void> {
    for (let at = 0; at < resourceIds.length; at += CHUNK) {
      const chunk = resourceIds.slice(at, at + CHUNK);
      await db.deleteFrom('dav_locks').where('resource_id', 'in', chunk).execute();
      await db.deleteFrom('dav_properties').where('resource_id', 'in', chunk).execute();
    }
  },
  /** Locks past their time-out (any instance may sweep them). */
  deleteExpiredLocks: async (now: string) => {
    await db.deleteFrom('dav_locks').where('expires_at', '<=', now).execute();
  },
});

export type DavRepository = ReturnType<typeof createDavRepository>;

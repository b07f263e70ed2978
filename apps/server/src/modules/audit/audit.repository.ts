import type { Db } from '../../db';
import type { AuditLogTable } from '../../db/schema';

export type AuditRow = AuditLogTable;

export interface AuditFilter {
  actor?: string | undefined;
  action?: string | undefined;
  target?: string | undefined;
  /** Inclusive, ISO-8601. */
  from?: string | undefined;
  /** Exclusive, ISO-8601. */
  to?: string | undefined;
  /** Entries strictly older than this (at, id) position: the keyset cursor. */
  before?: { at: string; id: string } | undefined;
}

/**
 * Plain queries on `audit_log`. There is deliberately no update and no delete of single entries: the log is
 * append-only; only the retention sweep removes entries, by age.
 */
export const createAuditRepository = (db: Db) => ({
  async insert(row: AuditRow): Promise<void> {
    await db.insertInto('audit_log').values(row).execute();
  },

  /** Newest first: (at, id) descending. */
  page(filter: AuditFilter, limit: number): Promise<AuditRow[]> {
    let query = db.selectFrom('audit_log').selectAll();
    if (filter.actor !== undefined) query = query.where('actor', '=', filter.actor);
    if (filter.action !== undefined) query = query.where('action', '=', filter.action);
    if (filter.target !== undefined) query = query.where('target', '=', filter.target);
    if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('at', '<', filter.to);
    const before = filter.before;
    if (before)
      query = query.where((eb) =>
        eb.or([eb('at', '<', before.at), eb.and([eb('at', '=', before.at), eb('id', '<', before.id)])]),
      );
    return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  },

  /** Deletes entries older than `before` (ISO-8601); returns how many. */
  async deleteOlderThan(before: string): Promise<number> {
    const result = await db.deleteFrom('audit_log').where('at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
});

export type AuditRepository = ReturnType<typeof createAuditRepository>;

import { sql } from 'kysely';
import type { Db } from '../../db';
import { iso, type Clock } from '../../lib/time';
import { visibleTo } from './notifications.repository';

/** A person's markers: everything up to `readThrough` is read, up to `clearedThrough` hidden (0: none). */
export interface NotificationMarks {
  readThrough: number;
  clearedThrough: number;
}

/** Markers only move forward: a late "Mark all as read" never un-reads what a newer one read. */
const forward = (column: 'read_through' | 'cleared_through') =>
  sql<number>`case when excluded.${sql.ref(column)} > notification_marks.${sql.ref(column)} then excluded.${sql.ref(column)} else notification_marks.${sql.ref(column)} end`;

/** Each person's read state of the notifications they may see (docs/PRODUCT.md#notifications; migration 0028). */
export const createNotificationReadsRepository = (db: Db, clock: Clock) => ({
  async marks(userId: string): Promise<NotificationMarks> {
    const row = await db
      .selectFrom('notification_marks')
      .select(['read_through', 'cleared_through'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return { readThrough: Number(row?.read_through ?? 0), clearedThrough: Number(row?.cleared_through ?? 0) };
  },

  /** What `userId` sees above `clearedThrough` and below `beforeSeq`, newest first. */
  page: (userId: string, clearedThrough: number, limit: number, beforeSeq?: number) => {
    let query = db.selectFrom('notifications').selectAll().where(visibleTo(userId)).where('seq', '>', clearedThrough);
    if (beforeSeq !== undefined) query = query.where('seq', '<', beforeSeq);
    return query.orderBy('seq', 'desc').limit(limit).execute();
  },

  /** One notification `userId` sees (not cleared), or undefined. */
  findVisible: (userId: string, seq: number, clearedThrough: number) =>
    db
      .selectFrom('notifications')
      .select('seq')
      .where(visibleTo(userId))
      .where('seq', '=', seq)
      .where('seq', '>', clearedThrough)
      .executeTakeFirst(),

  /** Which of `seqs` `userId` read one by one. */
  async readAmong(userId: string, seqs: number[]): Promise<Set<number>> {
    if (seqs.length === 0) return new Set();
    const rows = await db
      .selectFrom('notification_reads')
      .select('seq')
      .where('user_id', '=', userId)
      .where('seq', 'in', seqs)
      .execute();
    return new Set(rows.map((row) => Number(row.seq)));
  },

  /** Unread: visible, above both markers, not read one by one. */
  async countUnread(userId: string, marks: NotificationMarks): Promise<number> {
    const row = await db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll().as('count'))
      .where(visibleTo(userId))
      .where('seq', '>', Math.max(marks.readThrough, marks.clearedThrough))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('notification_reads as r')
              .select('r.seq')
              .whereRef('r.seq', '=', 'notifications.seq')
              .where('r.user_id', '=', userId),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  },

  /** The messages `userId` has not read, stored after `after` (ISO-8601), oldest first (the email digest). */
  async unreadAfter(userId: string, marks: NotificationMarks, after: string, limit: number) {
    return db
      .selectFrom('notifications')
      .select(['seq', 'message', 'created_at'])
      .where(visibleTo(userId))
      .where('seq', '>', Math.max(marks.readThrough, marks.clearedThrough))
      .where('created_at', '>', after)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('notification_reads as r')
              .select('r.seq')
              .whereRef('r.seq', '=', 'notifications.seq')
              .where('r.user_id', '=', userId),
          ),
        ),
      )
      .orderBy('seq', 'asc')
      .limit(limit)
      .execute();
  },

  async markRead(userId: string, seq: number): Promise<void> {
    await db
      .insertInto('notification_reads')
      .values({ user_id: userId, seq, read_at: iso(clock.now()) })
      .onConflict((oc) => oc.columns(['user_id', 'seq']).doNothing())
      .execute();
  },

  /**
   * Moves a marker of `userId` forward to `through` (never back; one statement, so parallel calls agree); single
   * reads it passes are no longer needed.
   */
  async advance(userId: string, marker: 'read_through' | 'cleared_through', through: number): Promise<void> {
    const now = iso(clock.now());
    await db
      .insertInto('notification_marks')
      .values({ user_id: userId, [marker]: through, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ [marker]: forward(marker), updated_at: now }))
      .execute();
    await db.deleteFrom('notification_reads').where('user_id', '=', userId).where('seq', '<=', through).execute();
  },
});

export type NotificationReadsRepository = ReturnType<typeof createNotificationReadsRepository>;

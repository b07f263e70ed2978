import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Db, Dialect } from '../../db';
import type { NotificationsTable } from '../../db/schema';
import { iso, type Clock } from '../../lib/time';

export type NotificationRow = Selectable<NotificationsTable>;

/** Any constant: PostgreSQL advisory lock that orders notification inserts across instances. */
const INSERT_LOCK = 7_340_001;

/** Plain queries on notifications, subscribers and push subscriptions. */
const countRows = async (db: Db, table: 'notification_subscribers' | 'push_subscriptions'): Promise<number> => {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
};

export const createNotificationsRepository = (db: Db, dialect: Dialect, clock: Clock) => ({
  /**
   * Stores a notification. Inserts are serialised (SQLite has one writer;
   * PostgreSQL takes a transaction-scoped advisory lock), so ids become
   * visible in increasing order and a stream can resume after any id.
   * With a dedupe key that already exists, returns the existing row and created=false.
   */
  async insert(values: {
    message: string;
    type: NotificationRow['type'];
    audienceUserId: string | null;
    createdBy: string | null;
    dedupeKey?: string;
  }): Promise<{ row: NotificationRow; created: boolean }> {
    return db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${INSERT_LOCK})`.execute(trx);
      if (values.dedupeKey) {
        const existing = await trx
          .selectFrom('notifications')
          .selectAll()
          .where('dedupe_key', '=', values.dedupeKey)
          .executeTakeFirst();
        if (existing) return { row: existing, created: false };
      }
      const row = await trx
        .insertInto('notifications')
        .values({
          message: values.message,
          type: values.type,
          audience_user_id: values.audienceUserId,
          // The audience columns of migration 0012 say the same (workspace audiences come with issue 15's phase 2).
          audience_type: values.audienceUserId === null ? 'all' : 'user',
          audience_id: values.audienceUserId,
          created_by: values.createdBy,
          dedupe_key: values.dedupeKey ?? null,
          created_at: iso(clock.now()),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { row, created: true };
    });
  },

  /** Highest id stored so far (0 when none). */
  async latestSeq(): Promise<number> {
    const row = await db
      .selectFrom('notifications')
      .select((eb) => eb.fn.max('seq').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  },

  /** Notifications after `afterSeq` up to `upToSeq` (inclusive), oldest first; all audiences. */
  listRange: (afterSeq: number, upToSeq: number, limit: number) =>
    db
      .selectFrom('notifications')
      .selectAll()
      .where('seq', '>', afterSeq)
      .where('seq', '<=', upToSeq)
      .orderBy('seq', 'asc')
      .limit(limit)
      .execute(),

  /** What one user may see after `afterSeq` up to `upToSeq`, oldest first. */
  listForUserRange: (userId: string, afterSeq: number, upToSeq: number, limit: number) =>
    db
      .selectFrom('notifications')
      .selectAll()
      .where('seq', '>', afterSeq)
      .where('seq', '<=', upToSeq)
      .where((eb) => eb.or([eb('audience_user_id', 'is', null), eb('audience_user_id', '=', userId)]))
      .orderBy('seq', 'asc')
      .limit(limit)
      .execute(),

  /** One user's feed, newest first. */
  listForUser: (userId: string, limit: number) =>
    db
      .selectFrom('notifications')
      .selectAll()
      .where((eb) => eb.or([eb('audience_user_id', 'is', null), eb('audience_user_id', '=', userId)]))
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute(),

  async addSubscriber(userId: string): Promise<void> {
    const now = iso(clock.now());
    await db
      .insertInto('notification_subscribers')
      .values({ user_id: userId, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ updated_at: now }))
      .execute();
  },

  countSubscribers: () => countRows(db, 'notification_subscribers'),

  countPushSubscriptions: () => countRows(db, 'push_subscriptions'),

  /**
   * Stores the browser's push subscription for this user, keyed by its endpoint. An endpoint that
   * another user registered moves to this user only with the same keys (the auth secret is known only
   * to that browser, so this proves the caller holds the subscription); otherwise the owner's row stays
   * unchanged. Returns whether the endpoint is now this user's.
   */
  async upsertPushSubscription(userId: string, sub: { endpoint: string; p256dh: string; auth: string }) {
    const now = iso(clock.now());
    const stored = await db
      .insertInto('push_subscriptions')
      .values({ id: randomUUID(), user_id: userId, ...sub, created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc
          .column('endpoint')
          .doUpdateSet({ user_id: userId, p256dh: sub.p256dh, auth: sub.auth, updated_at: now, failed_sends: 0 })
          .where((eb) =>
            eb.or([
              eb('push_subscriptions.user_id', '=', userId),
              eb.and([eb('push_subscriptions.p256dh', '=', sub.p256dh), eb('push_subscriptions.auth', '=', sub.auth)]),
            ]),
          ),
      )
      .returning('id')
      .executeTakeFirst();
    return stored !== undefined;
  },

  /** Push subscriptions for an audience: everyone (null) or one user. */
  listPushSubscriptions: (audienceUserId: string | null) => {
    let query = db.selectFrom('push_subscriptions').select(['id', 'endpoint', 'p256dh', 'auth', 'failed_sends']);
    if (audienceUserId) query = query.where('user_id', '=', audienceUserId);
    return query.orderBy('created_at').execute();
  },

  async deletePushSubscription(id: string): Promise<void> {
    await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
  },

  /**
   * Counts one more failed send in a row (one atomic update, so instances sending
   * at once all count) and removes the subscription once it reaches `limit`.
   * Returns whether it was removed.
   */
  async recordPushFailure(id: string, limit: number): Promise<boolean> {
    const row = await db
      .updateTable('push_subscriptions')
      .set((eb) => ({ failed_sends: eb('failed_sends', '+', 1) }))
      .where('id', '=', id)
      .returning('failed_sends')
      .executeTakeFirst();
    if (!row || row.failed_sends < limit) return false;
    await db.deleteFrom('push_subscriptions').where('id', '=', id).where('failed_sends', '>=', limit).execute();
    return true;
  },

  /** A delivered send ends a run of failures. */
  async recordPushSuccess(id: string): Promise<void> {
    await db
      .updateTable('push_subscriptions')
      .set({ failed_sends: 0 })
      .where('id', '=', id)
      .where('failed_sends', '>', 0)
      .execute();
  },
});

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;

import { displayNameOf } from '../../auth/actor';
import { randomUUID } from 'node:crypto';
import type { NotificationAudienceView } from '@atrium/contracts';
import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { Db, Dialect } from '../../db';
import type { Database, NotificationsTable } from '../../db/schema';
import { iso, type Clock } from '../../lib/time';
import { workspaceAudienceIds } from '../spaces';

export type NotificationRow = Selectable<NotificationsTable>;

/** The JSON of `notifications.details` (migration 0026). */
export interface NotificationDetails {
  workspace?: { id: string; name: string };
  sender?: { name: string };
  membership?: { role: 'owner' | 'editor' | 'viewer'; state: 'added' | 'invited' | 'changed' };
  /** What the notice opens (a shared file or folder, a file drop's folder, a workspace). */
  subject?: { kind: 'file' | 'folder' | 'workspace'; id: string; workspaceId: string | null };
}

/** Who sees a notification: everyone, one workspace's current members, or one user (by user id). */
export type Audience = { type: 'all' } | { type: 'workspace'; id: string } | { type: 'user'; id: string };

/** The audience a stored notification has. */
export const audienceOf = (row: Pick<NotificationRow, 'audience_type' | 'audience_id'>): Audience =>
  row.audience_type === 'all' || row.audience_id === null
    ? { type: 'all' }
    : { type: row.audience_type, id: row.audience_id };

/**
 * A stored audience as the admin screens show it: the workspace's or person's id and name (joined as
 * `workspace_name`, `target_key`, `target_name`), or everyone.
 */
export const presentAudience = (row: {
  audience_type: string;
  audience_id: string | null;
  workspace_name: string | null;
  target_key: string | null;
  target_name: string | null;
}): NotificationAudienceView =>
  row.audience_type === 'workspace'
    ? { type: 'workspace', id: row.audience_id, name: row.workspace_name }
    : row.audience_type === 'user'
      ? { type: 'user', id: row.target_key, name: row.target_name }
      : { type: 'all', id: null, name: null };

/**
 * Rows `userId` may see: everyone's, theirs, and those of the workspaces they are a member of now and have accepted
 * or opened (docs/PRODUCT.md#workspace-messages: a space someone was put in without asking does not reach their feed).
 */
export const visibleTo = (userId: string) => (eb: ExpressionBuilder<Database, 'notifications'>) =>
  eb.or([
    eb('audience_type', '=', 'all'),
    eb.and([eb('audience_type', '=', 'user'), eb('audience_id', '=', userId)]),
    eb.and([
      eb('audience_type', '=', 'workspace'),
      eb(
        'audience_id',
        'in',
        eb
          .selectFrom('workspace_members')
          .select('workspace_id')
          .where('user_id', '=', userId)
          .where('opened_at', 'is not', null),
      ),
    ]),
  ]);

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
    audience: Audience;
    createdBy: string | null;
    dedupeKey?: string;
    /** What a workspace message or membership notice names (stored as JSON, shown by `presentNotification`). */
    details?: NotificationDetails;
  }): Promise<{ row: NotificationRow; created: boolean }> {
    const { audience } = values;
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
          // Kept for a per-user notification, as before migration 0012; the audience columns decide.
          audience_user_id: audience.type === 'user' ? audience.id : null,
          audience_type: audience.type,
          audience_id: audience.type === 'all' ? null : audience.id,
          created_by: values.createdBy,
          dedupe_key: values.dedupeKey ?? null,
          details: values.details ? JSON.stringify(values.details) : null,
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
      .where(visibleTo(userId))
      .orderBy('seq', 'asc')
      .limit(limit)
      .execute(),

  /** One user's feed, newest first. */
  listForUser: (userId: string, limit: number) =>
    db.selectFrom('notifications').selectAll().where(visibleTo(userId)).orderBy('seq', 'desc').limit(limit).execute(),

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

  /** Push subscriptions of an audience: everyone, one workspace's current members who opened it, or one user. */
  listPushSubscriptions: (audience: Audience) => {
    let query = db.selectFrom('push_subscriptions').select(['id', 'endpoint', 'p256dh', 'auth', 'failed_sends']);
    if (audience.type === 'user') query = query.where('user_id', '=', audience.id);
    if (audience.type === 'workspace') {
      query = query.where('user_id', 'in', (eb) =>
        eb
          .selectFrom('workspace_members')
          .select('user_id')
          .where('workspace_id', '=', audience.id)
          .where('opened_at', 'is not', null),
      );
    }
    return query.orderBy('created_at').execute();
  },

  /** The current members of a workspace who accepted or opened it (a workspace audience's live streams). */
  workspaceMemberIds: (workspaceId: string): Promise<string[]> => workspaceAudienceIds(db, workspaceId),

  /** The names a workspace message shows: the workspace's, and the sender's display name. */
  async namesFor(workspaceId: string, senderId: string | null) {
    const workspace = await db.selectFrom('workspaces').select('name').where('id', '=', workspaceId).executeTakeFirst();
    const sender =
      senderId === null
        ? undefined
        : await db
            .selectFrom('users')
            .select(['name', 'nickname', 'owner_key'])
            .where('id', '=', senderId)
            .executeTakeFirst();
    return {
      workspaceName: workspace?.name ?? null,
      senderName: sender ? displayNameOf({ ...sender, ownerKey: sender.owner_key }) : null,
    };
  },

  /** The role of `userId` in workspace `workspaceId` (undefined: not a member), and whether it exists at all. */
  async workspaceFor(workspaceId: string, userId: string) {
    const row = await db
      .selectFrom('workspaces')
      .leftJoin('workspace_members as me', (join) =>
        join.onRef('me.workspace_id', '=', 'workspaces.id').on('me.user_id', '=', userId),
      )
      .select(['workspaces.id', 'me.role'])
      .where('workspaces.id', '=', workspaceId)
      .executeTakeFirst();
    return row && { id: row.id, memberRole: row.role ?? null };
  },

  /** A folder's name and workspace (a file-drop notice names the folder and opens it). */
  folderFor: (folderId: string) =>
    db
      .selectFrom('folders')
      .select(['name', 'workspace_id as workspaceId'])
      .where('id', '=', folderId)
      .executeTakeFirst(),

  async userIdOf(ownerKey: string): Promise<string | undefined> {
    const row = await db.selectFrom('users').select('id').where('owner_key', '=', ownerKey).executeTakeFirst();
    return row?.id;
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

  /**
   * Adds this instance's live deliveries of a notification to its row: one atomic update, so every instance's
   * count adds up (the history's "delivered live").
   */
  async addLiveDeliveries(seq: number, streams: number): Promise<void> {
    if (streams <= 0) return;
    await db
      .updateTable('notifications')
      .set((eb) => ({ delivered_live: eb('delivered_live', '+', streams) }))
      .where('seq', '=', seq)
      .execute();
  },

  /** Adds the outcome of a Web Push fan-out to the notification's counts (one atomic update). */
  async addPushOutcome(seq: number, sent: number, failed: number): Promise<void> {
    if (sent + failed <= 0) return;
    await db
      .updateTable('notifications')
      .set((eb) => ({ push_sent: eb('push_sent', '+', sent), push_failed: eb('push_failed', '+', failed) }))
      .where('seq', '=', seq)
      .execute();
  },

  /**
   * Published (admin) notifications, newest first, before `beforeSeq` when given, with the publisher's owner key
   * and name and the audience's name (workspace name, or the user's owner key and name).
   */
  listPublished: (limit: number, beforeSeq?: number) => {
    let query = db
      .selectFrom('notifications as n')
      .leftJoin('users as publisher', 'publisher.id', 'n.created_by')
      .leftJoin('workspaces as ws', (join) =>
        join.onRef('ws.id', '=', 'n.audience_id').on('n.audience_type', '=', 'workspace'),
      )
      .leftJoin('users as target', (join) =>
        join.onRef('target.id', '=', 'n.audience_id').on('n.audience_type', '=', 'user'),
      )
      .select([
        'n.seq',
        'n.message',
        'n.created_at',
        'n.audience_type',
        'n.audience_id',
        'n.delivered_live',
        'n.push_sent',
        'n.push_failed',
        'publisher.owner_key as publisher_key',
        'publisher.name as publisher_name',
        'ws.name as workspace_name',
        'target.owner_key as target_key',
        'target.name as target_name',
      ])
      .where('n.type', 'in', ['admin', 'workspace']);
    if (beforeSeq !== undefined) query = query.where('n.seq', '<', beforeSeq);
    return query.orderBy('n.seq', 'desc').limit(limit).execute();
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

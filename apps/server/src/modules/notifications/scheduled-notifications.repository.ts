import type { Db } from '../../db';
import type { Audience } from './notifications.repository';

/** Plain queries on scheduled messages. Times are ISO-8601 UTC text, so text order is time order. */
export const createScheduledNotificationsRepository = (db: Db) => {
  /** Rows with the creator's owner key and name and the audience's name. */
  const views = () =>
    db
      .selectFrom('scheduled_notifications as s')
      .leftJoin('users as creator', 'creator.id', 's.created_by')
      .leftJoin('workspaces as ws', (join) =>
        join.onRef('ws.id', '=', 's.audience_id').on('s.audience_type', '=', 'workspace'),
      )
      .leftJoin('users as target', (join) =>
        join.onRef('target.id', '=', 's.audience_id').on('s.audience_type', '=', 'user'),
      )
      .selectAll('s')
      .select([
        'creator.owner_key as creator_key',
        'creator.name as creator_name',
        'creator.role as creator_role',
        'creator.disabled_at as creator_disabled_at',
        'ws.name as workspace_name',
        'target.owner_key as target_key',
        'target.name as target_name',
      ]);

  return {
    async insert(values: {
      id: string;
      message: string;
      audience: Audience;
      createdBy: string;
      sendAt: string;
      createdAt: string;
    }): Promise<void> {
      await db
        .insertInto('scheduled_notifications')
        .values({
          id: values.id,
          message: values.message,
          audience_type: values.audience.type,
          audience_id: values.audience.type === 'all' ? null : values.audience.id,
          created_by: values.createdBy,
          send_at: values.sendAt,
          created_at: values.createdAt,
        })
        .execute();
    },

    findView: (id: string) => views().where('s.id', '=', id).executeTakeFirst(),

    /** Messages not sent yet (pending, or being sent now), soonest first. */
    listUnsent: (limit: number) =>
      views()
        .where('s.state', 'in', ['pending', 'sending'])
        .orderBy('s.send_at', 'asc')
        .orderBy('s.id')
        .limit(limit)
        .execute(),

    async countPending(): Promise<number> {
      const row = await db
        .selectFrom('scheduled_notifications')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('state', '=', 'pending')
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    /** Ids of messages due at `now`, and of claims older than `staleBefore` (an instance died while sending). */
    async dueIds(now: string, staleBefore: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('scheduled_notifications')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'pending'), eb('send_at', '<=', now)]),
            eb.and([eb('state', '=', 'sending'), eb('claimed_at', '<', staleBefore)]),
          ]),
        )
        .orderBy('send_at', 'asc')
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },

    /**
     * Claims a due message for this instance: one conditional update (the condition is checked again under the
     * row's lock on PostgreSQL, SQLite has one writer), so of two instances claiming at once exactly one gets the
     * row. Returns it, or undefined when another instance has it, or it was cancelled or sent.
     */
    claim: (id: string, now: string, staleBefore: string) =>
      db
        .updateTable('scheduled_notifications')
        .set({ state: 'sending', claimed_at: now })
        .where('id', '=', id)
        .where((eb) =>
          eb.or([
            eb.and([eb('state', '=', 'pending'), eb('send_at', '<=', now)]),
            eb.and([eb('state', '=', 'sending'), eb('claimed_at', '<', staleBefore)]),
          ]),
        )
        .returningAll()
        .executeTakeFirst(),

    async markSent(id: string, seq: number, now: string): Promise<void> {
      await db
        .updateTable('scheduled_notifications')
        .set({ state: 'sent', sent_at: now, notification_seq: seq })
        .where('id', '=', id)
        .execute();
    },

    /** Cancels a message this instance claimed (its author may no longer send it). */
    async withdraw(id: string, now: string): Promise<void> {
      await db
        .updateTable('scheduled_notifications')
        .set({ state: 'cancelled', cancelled_at: now })
        .where('id', '=', id)
        .where('state', '=', 'sending')
        .execute();
    },

    /** Cancels a pending message (one conditional update); undefined when it is not pending (sent, sending…). */
    cancel: (id: string, now: string) =>
      db
        .updateTable('scheduled_notifications')
        .set({ state: 'cancelled', cancelled_at: now })
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .returning('id')
        .executeTakeFirst(),
  };
};

export type ScheduledNotificationsRepository = ReturnType<typeof createScheduledNotificationsRepository>;

import type { Db } from '../../db';

/** Which opt-in column a kind of email reads. */
export type NoticeColumn = 'share_notices' | 'member_notices' | 'daily_digest';

export interface OutboxRow {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: string;
  attempts: number;
}

/** Email opt-in (`mail_preferences`) and the outbox (`mail_outbox`), migration 0034. */
export const createMailRepository = (db: Db) => ({
  /** A person's address and choices (no row: all off); undefined when the person does not exist. */
  person: (userId: string) =>
    db
      .selectFrom('users')
      .leftJoin('mail_preferences as p', 'p.user_id', 'users.id')
      .select(['users.id', 'users.email', 'users.name', 'users.disabled_at'])
      .select(['p.share_notices', 'p.member_notices', 'p.daily_digest', 'p.last_digest_at'])
      .where('users.id', '=', userId)
      .executeTakeFirst(),

  async save(
    userId: string,
    values: Partial<Record<NoticeColumn, number>> & { last_digest_at?: string },
    now: string,
  ): Promise<void> {
    await db
      .insertInto('mail_preferences')
      .values({ user_id: userId, ...values, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: now }))
      .execute();
  },

  /** People who want the daily digest, have an address, are enabled, and had none since `before`. */
  digestDue: (before: string) =>
    db
      .selectFrom('mail_preferences as p')
      .innerJoin('users', 'users.id', 'p.user_id')
      .select(['users.id', 'users.email', 'users.name', 'p.last_digest_at', 'p.updated_at'])
      .where('p.daily_digest', '=', 1)
      .where('users.email', 'is not', null)
      .where('users.disabled_at', 'is', null)
      .where((eb) => eb.or([eb('p.last_digest_at', 'is', null), eb('p.last_digest_at', '<=', before)]))
      .orderBy('users.id')
      .execute(),

  async enqueue(row: Omit<OutboxRow, 'attempts'> & { created_at: string }): Promise<void> {
    await db
      .insertInto('mail_outbox')
      .values({ ...row, next_attempt_at: row.created_at })
      .execute();
  },

  /** Ids of messages due now (not sent, not given up, not claimed by a live sender). */
  due: (now: string, limit: number) =>
    db
      .selectFrom('mail_outbox')
      .select('id')
      .where('sent_at', 'is', null)
      .where('gave_up_at', 'is', null)
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .orderBy('created_at')
      .limit(limit)
      .execute(),

  /** Claims one message until `until` with a conditional update: only one sender wins it. */
  async claim(id: string, now: string, until: string): Promise<OutboxRow | undefined> {
    const result = await db
      .updateTable('mail_outbox')
      .set({ claimed_until: until })
      .where('id', '=', id)
      .where('sent_at', 'is', null)
      .where('gave_up_at', 'is', null)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    return db
      .selectFrom('mail_outbox')
      .select(['id', 'to_address', 'subject', 'text_body', 'html_body', 'headers', 'attempts'])
      .where('id', '=', id)
      .executeTakeFirst();
  },

  async markSent(id: string, now: string): Promise<void> {
    await db
      .updateTable('mail_outbox')
      .set((eb) => ({ sent_at: now, claimed_until: null, attempts: eb('attempts', '+', 1), last_error: null }))
      .where('id', '=', id)
      .execute();
  },

  /** A failed attempt: try again at `retryAt`, or give up (`retryAt` undefined). */
  async markFailed(id: string, now: string, error: string, retryAt: string | undefined): Promise<void> {
    await db
      .updateTable('mail_outbox')
      .set((eb) => ({
        claimed_until: null,
        attempts: eb('attempts', '+', 1),
        last_error: error.slice(0, 500),
        ...(retryAt ? { next_attempt_at: retryAt } : { gave_up_at: now }),
      }))
      .where('id', '=', id)
      .execute();
  },

  /** The outbox's figures: waiting, sent, given up. */
  async counts() {
    const rows = await db
      .selectFrom('mail_outbox')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.count<number>('sent_at').as('sent'),
        eb.fn.count<number>('gave_up_at').as('gaveUp'),
      ])
      .executeTakeFirstOrThrow();
    const total = Number(rows.total);
    const sent = Number(rows.sent);
    const gaveUp = Number(rows.gaveUp);
    return { waiting: total - sent - gaveUp, sent, gaveUp };
  },
});

export type MailRepository = ReturnType<typeof createMailRepository>;

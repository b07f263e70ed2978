import type { Db } from '../../db';
import type { ContactMessagesTable } from '../../db/schema';

export type ContactMessageRow = ContactMessagesTable;

/** Plain queries on contact messages; no product rules here. */
export const createContactRepository = (db: Db) => ({
  insert: async (row: ContactMessageRow): Promise<void> => {
    await db.insertInto('contact_messages').values(row).execute();
  },

  /** How many messages this address sent at or after `since` (ISO-8601). */
  countFromIpSince: async (ip: string, since: string): Promise<number> => {
    const result = await db
      .selectFrom('contact_messages')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('ip', '=', ip)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(result.count);
  },

  /** The oldest of this address's messages at or after `since`, to tell when the window frees up. */
  oldestFromIpSince: async (ip: string, since: string): Promise<string | undefined> => {
    const row = await db
      .selectFrom('contact_messages')
      .select('created_at')
      .where('ip', '=', ip)
      .where('created_at', '>=', since)
      .orderBy('created_at', 'asc')
      .limit(1)
      .executeTakeFirst();
    return row?.created_at;
  },

  listNewestFirst: (limit: number) =>
    db
      .selectFrom('contact_messages')
      .select(['id', 'name', 'email', 'message', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
});

export type ContactRepository = ReturnType<typeof createContactRepository>;

import type { Db } from '../../db';
import type { ContactMessagesTable } from '../../db/schema';

export type ContactMessageRow = ContactMessagesTable;

/** Plain queries on contact messages; no product rules here. */
export const createContactRepository = (db: Db) => ({
  insert: async (row: ContactMessageRow): Promise<void> => {
    await db.insertInto('contact_messages').values(row).execute();
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

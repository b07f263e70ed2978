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
      .select(['id', 'name', 'email', 'message', 'created_at', 'read_at', 'handled_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),

  findById: (id: string) =>
    db
      .selectFrom('contact_messages')
      .select(['id', 'name', 'email', 'message', 'created_at', 'read_at', 'handled_at'])
      .where('id', '=', id)
      .executeTakeFirst(),

  setStatus: async (id: string, status: { read_at?: string | null; handled_at?: string | null }) => {
    await db.updateTable('contact_messages').set(status).where('id', '=', id).execute();
  },

  /** Deletes the message; whether there was one. */
  delete: async (id: string): Promise<boolean> => {
    const result = await db.deleteFrom('contact_messages').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  countUnread: async (): Promise<number> => {
    const row = await db
      .selectFrom('contact_messages')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },
});

export type ContactRepository = ReturnType<typeof createContactRepository>;

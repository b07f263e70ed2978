import { randomUUID } from 'node:crypto';
import type { ContactCreated, ContactMessage, ContactRequest } from '@atrium/contracts';
import { iso, type Clock } from '../../lib/time';
import type { ContactRepository } from './contact.repository';

/** The admin list shows at most this many recent messages. */
export const CONTACT_LIST_LIMIT = 500;

export interface ContactServiceDeps {
  repo: ContactRepository;
  clock: Clock;
}

export interface Sender {
  ip: string;
  userAgent?: string | undefined;
}

/** The contact form: stores messages (the route limits them per address) and lists them for admins. */
export const createContactService = ({ repo, clock }: ContactServiceDeps) => {
  const service = {
    async submit(input: ContactRequest, sender: Sender): Promise<ContactCreated> {
      const now = clock.now();
      const row = {
        id: randomUUID(),
        name: input.name,
        email: input.email,
        message: input.message,
        ip: sender.ip,
        user_agent: sender.userAgent?.slice(0, 512) ?? null,
        created_at: iso(now),
      };
      await repo.insert(row);
      return { id: row.id, createdAt: row.created_at };
    },

    async list(): Promise<ContactMessage[]> {
      const rows = await repo.listNewestFirst(CONTACT_LIST_LIMIT);
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        email: row.email,
        message: row.message,
        createdAt: row.created_at,
      }));
    },
  };
  return service;
};

export type ContactService = ReturnType<typeof createContactService>;

import { randomUUID } from 'node:crypto';
import {
  CONTACT_ADMIN_TEXTS,
  type ContactCreated,
  type ContactMessage,
  type ContactMessagePatch,
  type ContactRequest,
} from '@atrium/contracts';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import type { ContactRepository } from './contact.repository';

type StoredMessage = NonNullable<Awaited<ReturnType<ContactRepository['findById']>>>;

const present = (row: StoredMessage): ContactMessage => ({
  id: row.id,
  name: row.name,
  email: row.email,
  message: row.message,
  createdAt: row.created_at,
  readAt: row.read_at,
  handledAt: row.handled_at,
});

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
        read_at: null,
        handled_at: null,
      };
      await repo.insert(row);
      return { id: row.id, createdAt: row.created_at };
    },

    async list(): Promise<ContactMessage[]> {
      const rows = await repo.listNewestFirst(CONTACT_LIST_LIMIT);
      return rows.map(present);
    },

    /**
     * Marks a message read/unread and handled/not handled. A flag already in the asked state keeps its time;
     * handling a message also marks it read.
     */
    async update(id: string, patch: ContactMessagePatch): Promise<ContactMessage> {
      const row = await repo.findById(id);
      if (!row) throw new AppError('NOT_FOUND', CONTACT_ADMIN_TEXTS.notFound);
      const at = iso(clock.now());
      const status: { read_at?: string | null; handled_at?: string | null } = {};
      if (patch.handled !== undefined) status.handled_at = patch.handled ? (row.handled_at ?? at) : null;
      const read = patch.read ?? (patch.handled ? true : undefined);
      if (read !== undefined) status.read_at = read ? (row.read_at ?? at) : null;
      await repo.setStatus(id, status);
      return present({ ...row, ...status });
    },

    async remove(id: string): Promise<void> {
      if (!(await repo.delete(id))) throw new AppError('NOT_FOUND', CONTACT_ADMIN_TEXTS.notFound);
    },

    async unreadCount(): Promise<number> {
      return repo.countUnread();
    },
  };
  return service;
};

export type ContactService = ReturnType<typeof createContactService>;

import { randomUUID } from 'node:crypto';
import type { ContactCreated, ContactMessage, ContactRequest } from '@atrium/contracts';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import type { ContactRepository } from './contact.repository';

const HOUR_MS = 60 * 60 * 1000;
/** The admin list shows at most this many recent messages. */
export const CONTACT_LIST_LIMIT = 500;

export interface ContactServiceDeps {
  repo: ContactRepository;
  clock: Clock;
  /** Messages accepted per sender address in any rolling hour. */
  maxPerHour: number;
}

export interface Sender {
  ip: string;
  userAgent?: string | undefined;
}

/** The contact form: stores messages (rate-limited per address) and lists them for admins. */
export const createContactService = ({ repo, clock, maxPerHour }: ContactServiceDeps) => {
  const service = {
    /** 429 when `ip` has sent `maxPerHour` messages in the last hour (checked before the body is read, and again on submit). */
    async checkLimit(ip: string): Promise<void> {
      const now = clock.now();
      const since = iso(new Date(now.getTime() - HOUR_MS));
      const recent = await repo.countFromIpSince(ip, since);
      if (recent >= maxPerHour) {
        const oldest = await repo.oldestFromIpSince(ip, since);
        const retryAfterS = oldest
          ? Math.max(1, Math.ceil((Date.parse(oldest) + HOUR_MS - now.getTime()) / 1000))
          : 3600;
        throw new AppError('RATE_LIMITED', 'You have sent several messages already. Please try again later.', {
          headers: { 'retry-after': String(retryAfterS) },
        });
      }
    },

    async submit(input: ContactRequest, sender: Sender): Promise<ContactCreated> {
      await service.checkLimit(sender.ip);
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

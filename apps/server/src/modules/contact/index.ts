/**
 * The contact module's face: the public site's contact form (docs/PRODUCT.md#contact), a few messages per hour.
 *
 * `POST /api/contact` (public: name, email and message validated by `ContactRequest`, stored in `contact_messages`; at
 * most `CONTACT_MAX_PER_HOUR` accepted per sender IP and hour, declared on the route and counted on success only). The
 * admin's Messages screen (docs/PRODUCT.md#admin-console-api-keys-and-messages): list, unread count, mark read or
 * unread, handled or not (a flag already in the asked state keeps its time; handling marks read), delete — all
 * `adminOnly('contactMessages')`. `contact.repository.ts` holds the queries on `contact_messages` (`read_at`,
 * `handled_at` from migration `0015-contact-status`), `contact.service.ts` the rules, `contact.routes.ts` the routes
 * with their rate limit.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import type { Clock } from '../../lib/time';
import { createContactRepository } from './contact.repository';
import { registerContactRoutes } from './contact.routes';
import { createContactService } from './contact.service';

export function createContactModule(app: FastifyInstance, deps: { db: Db; clock: Clock; maxPerHour: number }) {
  const contact = createContactService({ repo: createContactRepository(deps.db), clock: deps.clock });
  registerContactRoutes(app, { contact, maxPerHour: deps.maxPerHour });
}

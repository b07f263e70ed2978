/** The contact module's face: the public site's contact form (docs/PRODUCT.md#contact), a few messages per hour. */
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

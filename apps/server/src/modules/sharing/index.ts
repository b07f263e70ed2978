/**
 * The sharing module's face: files and folders shared with people (docs/PRODUCT.md#sharing-with-people); new grants
 * and role changes notify the recipients.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import type { EventEmitter } from '../../events';
import { createSharingRepository } from './sharing.repository';
import { registerSharingRoutes } from './sharing.routes';
import { createSharingService, type SharingServiceDeps } from './sharing.service';

export interface SharingModuleDeps extends Omit<SharingServiceDeps, 'repo'> {
  db: Db;
  events: EventEmitter;
}

export function createSharingModule(app: FastifyInstance, { db, events, ...deps }: SharingModuleDeps) {
  const sharing = createSharingService({ ...deps, repo: createSharingRepository(db) });
  registerSharingRoutes(app, { sharing, events });
}

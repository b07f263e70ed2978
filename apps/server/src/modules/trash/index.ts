/**
 * The trash module's face: what deleting a file or folder moved out of sight, per space, until it is restored or
 * purged (by hand, or by the `trash.purge` job after `TRASH_RETENTION_DAYS`).
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import type { EventEmitter } from '../../events';
import { createTrashRepository } from './trash.repository';
import { registerTrashRoutes } from './trash.routes';
import { createTrashService, type TrashServiceDeps } from './trash.service';

export interface TrashModuleDeps extends Omit<TrashServiceDeps, 'repo'> {
  db: Db;
  events: EventEmitter;
}

export function createTrashModule(app: FastifyInstance, { db, events, ...deps }: TrashModuleDeps) {
  const trash = createTrashService({ ...deps, events, repo: createTrashRepository(db) });
  registerTrashRoutes(app, { trash });
  return { trash };
}

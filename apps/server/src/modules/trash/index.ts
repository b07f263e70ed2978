/**
 * The trash module's face: what deleting a file or folder moved out of sight, per space, until it is restored or
 * purged (by hand, or by the `trash.purge` job after `TRASH_RETENTION_DAYS`).
 *
 * Trash is a state of the row, not a move (migration `0016-trash-versions`): a trashed item keeps its folder and frees
 * its name; what went with a trashed folder carries its `trash_root_id`, so every listing hides it with one column
 * (docs/PRODUCT.md#trash-and-versions). `trash.repository.ts`: the top trashed items of a scope (a personal space, a
 * list of workspaces), newest first. `trash.service.ts`: `list`, `restore` (the files and folders services'
 * `restoreInto`, each with its free-name loop), `purge`, `empty`, `purgeExpired` (the daily `trash.purge` job, in
 * batches). Who may is `auth/policies/trash.ts` (`requireTrashItem`: a personal trash is its owner's, a workspace's for
 * members who may `delete`; anything else is the 404 of an unknown id). Purging a folder first moves items trashed on
 * their own from inside it to the space's root, then deletes rows, then bytes.
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

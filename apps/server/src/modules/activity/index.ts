/**
 * The activity module's face: activity feeds, the dashboard home, Starred and Recent (docs/PRODUCT.md#activity,
 * #dashboard-home, #starred-and-recent).
 *
 * Feeds are read from the audit log (`audit_log.subject`, migration `0022-audit-subject`): the entries about files
 * and folders that are now inside a workspace (`GET /api/workspaces/{id}/activity`, members only) or inside a
 * folder's subtree (`GET /api/folders/{id}/activity`, whoever may read the folder, a share recipient included),
 * paged on `(at, id)` with a base64url cursor, filtered by person and type (`ACTIVITY_TYPES`). Share and link
 * entries need `share` on the workspace or folder. A purged item's entries leave the feed with it.
 *
 * Stars: table `stars` (migration `0029-stars`), one per person and item, removed by foreign keys when the item is
 * purged. Starred, Recent and the home's counts use `readableScope` (personal space, workspaces, shares), leaving
 * out what is in the trash.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import { createActivityRepository } from './activity.repository';
import { registerActivityRoutes } from './activity.routes';
import { createActivityService, type ActivityServiceDeps } from './activity.service';

export interface ActivityModuleDeps extends Omit<ActivityServiceDeps, 'repo'> {
  db: Db;
}

export function createActivityModule(app: FastifyInstance, { db, ...deps }: ActivityModuleDeps) {
  const activity = createActivityService({ ...deps, repo: createActivityRepository(db) });
  registerActivityRoutes(app, { activity });
}

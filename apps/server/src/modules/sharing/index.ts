/**
 * The sharing module's face: files and folders shared with people (docs/PRODUCT.md#sharing-with-people); new grants
 * and role changes notify the recipients.
 *
 * `sharing.routes.ts`: grant or change (PUT), revoke (DELETE) and list (GET) the shares of a file or folder, with a
 * person or a workspace, and `GET /api/shared-with-me`. `sharing.service.ts` loads the item with the `share` action
 * (the policies decide), resolves the grantee, upserts, notifies each recipient through the notifications module (a
 * workspace grantee's members but the sharer) and merges Shared with me to one entry per item with the strongest role.
 * `sharing.repository.ts`: table `shares` (migration 0012), an upsert whose unique-index race is retried as an update.
 * Access through shares is not decided here: `auth/access-facts.ts` finds it for every file and folder route.
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
  const sharing = createSharingService({ ...deps, events, repo: createSharingRepository(db) });
  registerSharingRoutes(app, { sharing, events });
  // Shared with me, for the WebDAV tree (modules/dav).
  return { sharing };
}

export type SharingService = ReturnType<typeof createSharingService>;

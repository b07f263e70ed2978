/**
 * The spaces module's face: personal spaces and workspaces, their members and folders, and who may reach what in
 * them (docs/PRODUCT.md#workspaces-and-folders). It announces `member.added` when someone is added to a workspace or
 * invited to it (docs/PRODUCT.md#workspace-members).
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { BlobStore } from '../../adapters/blob-store';
import type { Db } from '../../db';
import type { EventEmitter } from '../../events';
import type { Clock } from '../../lib/time';
import { createAccessResolver } from '../../auth/access-facts';
import { createFoldersService } from './folders.service';
import { createSpacesRepository } from './spaces.repository';
import { registerSpacesRoutes } from './spaces.routes';
import { createWorkspacesService, type MembershipConsent } from './workspaces.service';

export interface SpacesModuleDeps {
  db: Db;
  blobs: BlobStore;
  clock: Clock;
  /** `WORKSPACE_QUOTA_BYTES`. */
  workspaceQuotaBytes: number;
  log: FastifyBaseLogger;
  /** The admin's setting: whether adding someone invites them instead. */
  consent: MembershipConsent;
  events: EventEmitter;
}

export async function createSpacesModule(app: FastifyInstance, deps: SpacesModuleDeps) {
  const { blobs, clock, log, events } = deps;
  const spacesRepo = createSpacesRepository(deps.db);
  const access = createAccessResolver(deps.db);
  const workspaces = createWorkspacesService({
    repo: spacesRepo,
    blobs,
    clock,
    quotaBytes: deps.workspaceQuotaBytes,
    log,
    consent: deps.consent,
    events,
  });
  const folders = createFoldersService({ repo: spacesRepo, workspaces, access, blobs, clock, log, events });
  // A cycle or a tree deeper than the cap stored before the cap existed would stall every walk up from its folders:
  // break it before the first request (docs/PRODUCT.md#workspaces-and-folders).
  await folders.repairTree();
  registerSpacesRoutes(app, { workspaces, folders });
  return { workspaces, folders, access, spacesRepo };
}

// What other modules may use (docs/ARCHITECTURE.md#server-layers: only through this face).
export { folderNameKey, numberedFolderName } from './folder-names';
export type { FoldersService } from './folders.service';
export type { SpacesRepository } from './spaces.repository';
export { workspaceAudienceIds, workspaceMemberIds } from './workspaces.repository';
export { MEMBER_MESSAGES } from './workspaces.service';

/**
 * The spaces module's face: personal spaces and workspaces, their members and folders, and who may reach what in
 * them (docs/PRODUCT.md#workspaces-and-folders). It announces `member.added` when someone is added to a workspace or
 * invited to it (docs/PRODUCT.md#workspace-members).
 *
 * A space is a workspace or a person's personal space; each has exactly one root folder (a personal root created on
 * first need, a workspace's with the workspace and its owner membership in one transaction). Tables from migration
 * `0012-workspaces` (shares and links use the same ones); row types in `db/schema/spaces.ts`. `spaces.repository.ts`
 * composes `workspaces.repository.ts` (workspaces, members, the directory of people) and `folders.repository.ts`
 * (folders, `lockSpace`, listings).
 *
 * `workspaces.service.ts`: workspaces, roles (owner / editor / viewer), the last-owner rule, membership consent where
 * the admin's setting asks for it; `folders.service.ts`: create, rename and move (`update`), trash (`remove`),
 * `restoreInto`, `purge`, `uploadTarget` (the files module's `FilePlacement`: `write` on the folder, default the
 * space's root) and `pageUnchecked` for the links module. Folder names follow `folder-names.ts` (refused with a reason;
 * a taken name becomes `name (1)`, `folder-free-name.ts`), folders nest at most `MAX_FOLDER_DEPTH` levels
 * (`folder-depth.ts`), a move is checked for cycles inside its transaction; `folder-listing.ts` pages folders first,
 * then files, with a keyset cursor; `folder-repair.ts` re-roots stored cycles at start-up (`repairTree`).
 *
 * Who may is the policies' (`auth/policies/workspace.ts`, `folder.ts`: missing and not-a-member are the same 404). The
 * facts they decide on come from `auth/access-facts.ts` (`createAccessResolver`: role in the workspace, strongest share
 * reaching the caller on the item or any folder above it; `readableScope`, the set form search uses); every walk over
 * `parent_id` is one bounded recursive CTE from `db/folder-walk.ts` (`FOLDER_WALK_BOUND`). Breadcrumbs of a folder
 * reached only through a share start at the highest shared folder.
 */
import type { WriteLocks } from '../../auth/policies/write-lock';
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
  /** WebDAV locks a folder's rename, move and delete honour. */
  writeLocks: WriteLocks;
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
  const folders = createFoldersService({
    ...{ repo: spacesRepo, workspaces, access, blobs, clock, log, events },
    writeLocks: deps.writeLocks,
  });
  // A cycle or a tree deeper than the cap stored before the cap existed would stall every walk up from its folders:
  // break it before the first request (docs/PRODUCT.md#workspaces-and-folders).
  await folders.repairTree();
  registerSpacesRoutes(app, { workspaces, folders });
  return { workspaces, folders, access, spacesRepo };
}

// What other modules may use (docs/ARCHITECTURE.md#server-layers: only through this face).
export { folderNameKey, numberedFolderName } from './folder-names';
export type { FoldersService } from './folders.service';
export type { WorkspacesService } from './workspaces.service';
export type { SpacesRepository } from './spaces.repository';
export { workspaceAudienceIds, workspaceMemberIds } from './workspaces.repository';
export { MEMBER_MESSAGES } from './workspaces.service';

import { randomUUID } from 'node:crypto';
import type {
  DeleteFolderResponse,
  Folder,
  FolderCrumb,
  FolderListing,
  FolderListQuery,
  MemberRole,
} from '@atrium/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore } from '../../adapters/blob-store/types';
import type { UserActor } from '../../auth/actor';
import { requireActsFor } from '../../auth/policies/file';
import { requireFolder, type FolderSubject } from '../../auth/policies/folder';
import type { ResourceAction } from '../../auth/policies/roles';
import { requireWorkspace } from '../../auth/policies/workspace';
import type { Db } from '../../db';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import { thumbnailKey, type UploadTarget } from '../files';
import type { EventEmitter } from '../../events';
import type { RequestContext } from '../../lib/http/request-context';
import type { AccessResolver } from '../../auth/access-facts';
import type { WriteLocks } from '../../auth/policies/write-lock';
import { MAX_FOLDER_DEPTH } from '../../db/folder-walk';
import { withFreeFolderName } from './folder-free-name';
import { createFolderPager, everyPage, type ListedFile } from './folder-listing';
import { FOLDER_MESSAGES } from './folder-messages';
import { checkFolderName, folderNameKey } from './folder-names';
import { createFolderRepair } from './folder-repair';
import type { FolderRow } from './folders.repository';
import type { SpacesRepository } from './spaces.repository';
import type { WorkspacesService } from './workspaces.service';

export { FOLDER_MESSAGES } from './folder-messages';

/** A folder row with what the folder policy reads. */
type CheckedFolder = FolderRow & FolderSubject;

export interface FoldersServiceDeps {
  repo: SpacesRepository;
  workspaces: WorkspacesService;
  access: AccessResolver;
  blobs: BlobStore;
  clock: Clock;
  log?: FastifyBaseLogger;
  /** Renames and moves are recorded here (`folder.renamed`, `folder.moved`); purges announced (`items.purged`). */
  events?: EventEmitter;
  /** WebDAV locks a folder's rename, move and delete honour (a lock on it, above it, or on anything inside it). */
  writeLocks?: WriteLocks;
}

/** Folders in every space: create, list (paged, sorted, folders first), rename, move, delete recursively. */
export function createFoldersService(deps: FoldersServiceDeps) {
  const { repo, workspaces, access, blobs, clock, log, events, writeLocks } = deps;
  const page = createFolderPager(repo);
  /** `withFreeFolderName` in this module's repository. */
  const withFreeName = (parentId: string, name: string, write: (name: string) => Promise<void>, excludeId?: string) =>
    withFreeFolderName(repo, parentId, name, write, excludeId);
  /**
   * Loads a folder with what the folder policy reads of the actor: membership in its workspace and the strongest
   * share reaching them (`auth/access-facts.ts`).
   */
  const loadFor =
    (actor: UserActor) =>
    async (id: string): Promise<CheckedFolder | undefined> => {
      const row = await repo.findFolder(id);
      if (!row) return undefined;
      const owns = row.workspace_id === null && row.owner_key === actor.ownerKey;
      const facts = await access.factsFor(actor, { workspaceId: row.workspace_id, folderId: row.id }, owns);
      if (row.workspace_id === null) {
        return { ...row, workspaceId: null, ownerKey: row.owner_key ?? '', shareRole: facts.shareRole };
      }
      const memberRole: MemberRole | null = facts.memberRole;
      return { ...row, workspaceId: row.workspace_id, ownerKey: null, memberRole, shareRole: facts.shareRole };
    };

  const authorized = (actor: UserActor, id: string, action: ResourceAction) =>
    requireFolder(actor, id, action, loadFor(actor));

  /**
   * Breadcrumbs: the root first, `folder` last. Someone who reaches the folder only through a share sees the path
   * from the highest shared folder down, never the names above it.
   */
  async function pathOf(folder: CheckedFolder | FolderRow, actor?: UserActor): Promise<FolderCrumb[]> {
    // One bounded query for the whole chain; it stops where a folder is in the trash, as a walk by `findFolder` did.
    const chain = folder.parent_id === null ? [] : await repo.ancestors(folder.parent_id);
    const live = chain.findIndex((row) => row.trashed_at !== null);
    const path: FolderCrumb[] = (live < 0 ? chain : chain.slice(0, live))
      .map((row) => ({ id: row.id, name: row.name }))
      .reverse();
    path.push({ id: folder.id, name: folder.name });
    const viaShareOnly =
      actor !== undefined &&
      'workspaceId' in folder &&
      (folder.workspaceId === null ? folder.ownerKey !== actor.ownerKey : folder.memberRole === null);
    if (!viaShareOnly) return path;
    const shared = await access.sharedFolderIds(
      actor.id,
      path.map((crumb) => crumb.id),
    );
    const top = path.findIndex((crumb) => shared.has(crumb.id));
    return top < 0 ? path.slice(-1) : path.slice(top);
  }

  const present = async (folder: CheckedFolder | FolderRow, actor?: UserActor): Promise<Folder> => ({
    id: folder.id,
    name: folder.name,
    parentId: folder.parent_id,
    workspaceId: folder.workspace_id,
    path: await pathOf(folder, actor),
    createdAt: folder.created_at,
  });

  /** Where a file put into `folder` goes: its space; a workspace file is recorded as put there by `uploader`. */
  const targetIn = (folder: FolderRow, uploader: { id: string | null; ownerKey: string }): UploadTarget => ({
    folderId: folder.id,
    workspaceId: folder.workspace_id,
    ownerKey: folder.owner_key ?? uploader.ownerKey,
    uploadedBy: uploader.id,
  });

  /**
   * Refuses (409) to put a subtree `height` levels tall into `parentId` when that would nest it deeper than
   * `MAX_FOLDER_DEPTH` (docs/PRODUCT.md#workspaces-and-folders), or, with `movingId`, when `parentId` is that folder or
   * below it (a cycle). Runs inside the write's transaction, after `lockSpace`: what it checked still holds when the
   * write lands.
   */
  async function checkPlace(trx: Db, parentId: string, height: number, movingId: string | null): Promise<void> {
    const standing = await repo.standing(parentId, movingId, trx);
    if (standing.within) throw new AppError('CONFLICT', FOLDER_MESSAGES.cycle);
    if (standing.depth === null || standing.depth + 1 + height > MAX_FOLDER_DEPTH) {
      throw new AppError('CONFLICT', FOLDER_MESSAGES.tooDeep);
    }
  }

  return {
    /** Folder `id` if the actor may do `action` in it: 404 `FOLDER_NOT_FOUND` when hidden, 403 when view-only. */
    authorize: authorized,

    /**
     * Where an upload of the actor goes, checked before any byte is read: into `folderId` (write access there),
     * the root of `workspaceId` (an editor or owner), or the personal space of `userId` — the caller's own only,
     * admins included (403 otherwise: `requireActsFor`). Nothing named: the caller's personal space.
     */
    async uploadTarget(
      actor: UserActor,
      place: { userId?: string | undefined; workspaceId?: string | undefined; folderId?: string | undefined },
    ): Promise<UploadTarget> {
      if (place.folderId !== undefined) {
        const folder = await authorized(actor, place.folderId, 'write');
        if (place.workspaceId !== undefined && folder.workspace_id !== place.workspaceId) {
          throw new AppError('BAD_REQUEST', FOLDER_MESSAGES.folderNotInWorkspace);
        }
        if (place.userId !== undefined && (folder.workspace_id !== null || folder.owner_key !== place.userId)) {
          throw new AppError('BAD_REQUEST', FOLDER_MESSAGES.folderNotInUserSpace);
        }
        return targetIn(folder, actor);
      }
      if (place.workspaceId !== undefined) {
        if (place.userId !== undefined) throw new AppError('BAD_REQUEST', FOLDER_MESSAGES.userOrWorkspace);
        const workspace = await requireWorkspace(actor, place.workspaceId, 'write', async (id) => {
          const row = await repo.findWorkspace(id, actor.id);
          return row && { ...row, memberRole: row.member_role };
        });
        const root = await repo.findFolder(workspace.root_folder_id);
        if (!root) throw new AppError('WORKSPACE_NOT_FOUND');
        return targetIn(root, actor);
      }
      const ownerKey = place.userId ?? actor.ownerKey;
      requireActsFor(actor, ownerKey, 'write');
      const root = await workspaces.personalRootOf(ownerKey, ownerKey === actor.ownerKey ? actor.id : null);
      return targetIn(root, actor);
    },

    /**
     * Where a file put into folder `folderId` goes, with no policy check (the caller's own policy decided: a file
     * being moved, a file-drop link). A workspace file is recorded as put there by `uploadedBy` (or, anonymously,
     * by the folder's creator).
     */
    async targetOfFolder(folderId: string, uploadedBy: string | null): Promise<UploadTarget | undefined> {
      const folder = await repo.findFolder(folderId);
      if (!folder) return undefined;
      const recordedAs = await repo.ownerKeyOfUser(uploadedBy ?? folder.created_by);
      return targetIn(folder, { id: uploadedBy, ownerKey: recordedAs ?? `workspace:${folder.workspace_id}` });
    },

    /** Creates a folder in `parentId`, or at the root of the workspace or of the personal space. */
    async create(
      actor: UserActor,
      input: {
        name: string;
        workspaceId?: string | undefined;
        parentId?: string | undefined;
        onConflict?: 'rename' | 'fail' | undefined;
      },
    ): Promise<Folder> {
      const name = checkFolderName(input.name);
      let parent: FolderRow;
      if (input.parentId !== undefined) {
        parent = await authorized(actor, input.parentId, 'write');
        if (input.workspaceId !== undefined && parent.workspace_id !== input.workspaceId) {
          throw new AppError('BAD_REQUEST', FOLDER_MESSAGES.parentElsewhere);
        }
      } else if (input.workspaceId !== undefined) {
        const workspace = await requireWorkspace(actor, input.workspaceId, 'write', async (id) => {
          const row = await repo.findWorkspace(id, actor.id);
          return row && { ...row, memberRole: row.member_role };
        });
        parent = await authorized(actor, workspace.root_folder_id, 'write');
      } else {
        parent = await workspaces.personalRoot(actor);
      }
      const now = iso(clock.now());
      const id = randomUUID();
      const row = (chosen: string): FolderRow => ({
        id,
        workspace_id: parent.workspace_id,
        owner_key: parent.owner_key,
        parent_id: parent.id,
        name: chosen,
        name_key: folderNameKey(chosen),
        created_by: actor.id,
        created_at: now,
        updated_at: now,
        trashed_at: null,
        trashed_by: null,
        trash_root_id: null,
      });
      // Asked not to rename (docs/PRODUCT.md#workspaces-and-folders): a taken name is refused, the client asks.
      if (input.onConflict === 'fail') {
        const taken = await repo.childNameKeysStartingWith(parent.id, folderNameKey(name));
        if (taken.has(folderNameKey(name))) throw new AppError('NAME_TAKEN', FOLDER_MESSAGES.nameTaken(name));
      }
      const chosen = await withFreeName(parent.id, name, (candidate) =>
        repo.transaction(async (trx) => {
          await repo.lockSpace(trx, parent);
          await checkPlace(trx, parent.id, 0, null);
          await repo.insertFolder(row(candidate), trx);
        }),
      );
      return present(row(chosen));
    },

    /**
     * One page of the folder's content: its folders first, then its files, in the order asked for; `checksums`: with
     * each file's SHA-256 (WebDAV's `oc:checksums`).
     */
    async list(
      actor: UserActor,
      id: string,
      query: FolderListQuery,
      options: { checksums?: boolean } = {},
    ): Promise<FolderListing & { files: ListedFile[] }> {
      const folder = await authorized(actor, id, 'read');
      return { ...(await present(folder, actor)), ...(await page(id, query, options)) };
    },

    /** Every page of folder `id` in turn (as `list`; `read` decided once, not per page): a WebDAV listing. */
    async *pages(actor: UserActor, id: string, query: FolderListQuery, options: { checksums?: boolean } = {}) {
      await authorized(actor, id, 'read');
      yield* everyPage(page, id, query, options);
    },

    /**
     * One page of folder `id` (as `list`, without the folder's own details) with no policy check, for callers whose
     * own policy decided (a public link's bearer, within the link's folder).
     */
    pageUnchecked: (id: string, query: FolderListQuery) => page(id, query),

    /** Renames and/or moves a folder within its space (no cycles; a taken name becomes `name (1)`). */
    async update(
      actor: UserActor,
      id: string,
      input: { name?: string | undefined; parentId?: string | undefined },
      context?: RequestContext,
    ) {
      const folder = await authorized(actor, id, 'write');
      if (folder.parent_id === null) throw new AppError('BAD_REQUEST', FOLDER_MESSAGES.rootFixed);
      await writeLocks?.requireUnlocked(actor.id, { folder: id });
      const name = input.name === undefined ? folder.name : checkFolderName(input.name);
      let parentId = folder.parent_id;
      if (input.parentId !== undefined && input.parentId !== folder.parent_id) {
        const target = await authorized(actor, input.parentId, 'write');
        if (target.workspace_id !== folder.workspace_id || target.owner_key !== folder.owner_key) {
          throw new AppError('BAD_REQUEST', FOLDER_MESSAGES.otherSpace);
        }
        parentId = target.id;
      }
      const moving = parentId !== folder.parent_id;
      const now = iso(clock.now());
      const write = (chosen: string, trx?: Db) =>
        repo.updateFolder(
          id,
          { name: chosen, name_key: folderNameKey(chosen), parent_id: parentId, updated_at: now },
          trx,
        );
      await withFreeName(
        parentId,
        name,
        // A move: the cycle and depth checks and the update in one transaction, under the space's lock, so two
        // opposite moves at once (A into B, B into A) cannot both pass.
        (chosen) =>
          moving
            ? repo.transaction(async (trx) => {
                await repo.lockSpace(trx, folder);
                await checkPlace(trx, parentId, await repo.height(id, false, trx), id);
                await write(chosen, trx);
              })
            : write(chosen),
        id,
      );
      const updated = await repo.findFolder(id);
      if (!updated) throw new AppError('FOLDER_NOT_FOUND');
      const entry = { actor: actor.ownerKey, target: `folder:${id}`, ...context };
      if (updated.name !== folder.name) {
        await events?.emit('folder.renamed', { ...entry, details: { from: folder.name, to: updated.name } });
      }
      if (updated.parent_id !== folder.parent_id && updated.parent_id !== null) {
        const [from, to] = await Promise.all([repo.findFolder(folder.parent_id), repo.findFolder(updated.parent_id)]);
        await events?.emit('folder.moved', {
          ...entry,
          details: {
            name: updated.name,
            from: { id: folder.parent_id, name: from?.name ?? null },
            to: { id: updated.parent_id, name: to?.name ?? null },
          },
        });
      }
      return present({ ...folder, ...updated }, actor);
    },

    /**
     * Moves a folder with its subfolders and files to the trash of its space (one transaction; `DELETE /api/trash/{id}`
     * or the purge job removes them for good: `purge`). Never a root folder.
     */
    async remove(actor: UserActor, id: string, context: RequestContext = {}): Promise<DeleteFolderResponse> {
      const folder = await authorized(actor, id, 'delete');
      if (folder.parent_id === null) throw new AppError('BAD_REQUEST', FOLDER_MESSAGES.rootFixed);
      await writeLocks?.requireUnlocked(actor.id, { folder: id });
      const below = await repo.folderIdsBelow(id);
      const files = await repo.trashFolder(id, below, actor.id, iso(clock.now()));
      const folders = below.length + 1;
      await events?.emit('file.deleted', {
        actor: actor.ownerKey,
        target: `folder:${id}`,
        details: { folders, files },
        ...context,
      });
      return { id, deleted: true, folders, files };
    },

    /**
     * Puts trashed folder `id` (and what went with it) back into `parentId` (the caller chose it: its old parent, or
     * the root of its space when that is gone); a name taken there becomes `name (1)`. Answers the name it got; 409
     * when it would nest folders deeper than the cap there.
     */
    async restoreInto(id: string, parentId: string, name: string): Promise<string> {
      const now = iso(clock.now());
      const folder = await repo.findAnyFolder(id);
      if (!folder) throw new AppError('FOLDER_NOT_FOUND');
      return withFreeName(parentId, name, (chosen) =>
        repo.untrashFolder(id, parentId, chosen, folderNameKey(chosen), now, async (trx) => {
          await repo.lockSpace(trx, folder);
          await checkPlace(trx, parentId, await repo.height(id, true, trx), id);
        }),
      );
    },

    /** See `folder-repair.ts`. */
    repairTree: createFolderRepair({ repo, clock, log, events }),

    /**
     * Deletes trashed folder `id` for good: its subfolders and files that went to the trash with it (rows in one
     * transaction, then the bytes, versions and thumbnails through the blob store; bytes a crash leaves behind are
     * orphans the upload sweep removes). Items trashed on their own from inside it stay in the trash, moved to the
     * root of the space (where a restore puts them). Answers how many files went.
     */
    async purge(id: string): Promise<number> {
      const folder = await repo.findAnyFolder(id);
      if (!folder || folder.trashed_at === null || folder.trash_root_id !== null) return 0;
      const ids = [id, ...(await repo.foldersTrashedWith(id))];
      const root = await repo.rootOf(folder);
      if (root) await repo.moveTrashedApart(ids, id, root.id);
      const files = await repo.deleteFolders(ids);
      await Promise.all(
        files.flatMap((file) => [
          blobs.delete(file.blob_key),
          blobs.delete(thumbnailKey(file.blob_key)),
          ...file.version_keys.map((key) => blobs.delete(key)),
        ]),
      ).catch((error: unknown) => log?.warn({ err: error, id }, 'could not remove the bytes of a purged folder'));
      await events?.emit('items.purged', { fileIds: files.map((file) => file.id), folderIds: ids });
      return files.length;
    },
  };
}

export type FoldersService = ReturnType<typeof createFoldersService>;

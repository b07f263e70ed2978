import { randomUUID } from 'node:crypto';
import type {
  DeleteFolderResponse,
  Folder,
  FolderCrumb,
  FolderListing,
  FolderListQuery,
  FolderSort,
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
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import { presentFile } from '../files/files.presenter';
import { thumbnailKey, toStoredFile, type UploadTarget } from '../files/stored-file';
import type { EventEmitter } from '../../events';
import type { RequestContext } from '../../lib/http/request-context';
import type { AccessResolver } from './access';
import { FOLDER_DEPTH_MESSAGE, MAX_FOLDER_DEPTH } from './folder-depth';
import { checkFolderName, folderNameKey, listedNameKeys, numberedFolderName } from './folder-names';
import type { FolderRow, KeysetAfter, SpacesRepository, StrandedFolder } from './spaces.repository';
import type { WorkspacesService } from './workspaces.service';

/** The 400/409 messages of folder changes. */
export const FOLDER_MESSAGES = {
  rootFixed: 'The root folder of a space cannot be renamed, moved or deleted.',
  otherSpace: 'Folders can only be moved within their space.',
  parentElsewhere: 'That parent folder is not in this workspace.',
  cycle: 'A folder cannot be moved into itself or into one of its subfolders.',
  tooDeep: FOLDER_DEPTH_MESSAGE,
  noFreeName: 'Could not find a free name for the folder. Please try again.',
  badCursor: 'The cursor is not valid for this folder and sort. Start again from the first page.',
  folderNotInWorkspace: 'That folder is not in this workspace.',
  folderNotInUserSpace: "That folder is not in that user's space.",
  userOrWorkspace: 'Send userId or workspaceId, not both.',
} as const;

/** A folder row with what the folder policy reads. */
type CheckedFolder = FolderRow & FolderSubject;

interface Cursor extends KeysetAfter {
  /** 0: still in the folders; 1: in the files. */
  phase: 0 | 1;
}

const FOLDER_SORT_COLUMN: Record<FolderSort, 'name_key' | 'created_at'> = {
  name: 'name_key',
  date: 'created_at',
  size: 'name_key',
  type: 'name_key',
};
const FILE_SORT_COLUMN = { name: 'name', date: 'upload_date', size: 'size', type: 'content_type' } as const;

export interface FoldersServiceDeps {
  repo: SpacesRepository;
  workspaces: WorkspacesService;
  access: AccessResolver;
  blobs: BlobStore;
  clock: Clock;
  log?: FastifyBaseLogger;
  /** Renames and moves are emitted here (`folder.renamed`, `folder.moved`: the audit log records them). */
  events?: EventEmitter;
}

/** Folders in every space: create, list (paged, sorted, folders first), rename, move, delete recursively. */
export function createFoldersService({ repo, workspaces, access, blobs, clock, log, events }: FoldersServiceDeps) {
  /**
   * Loads a folder with what the folder policy reads of the actor: membership in its workspace and the strongest
   * share reaching them (`access.ts`).
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
   * Tries `name`, `name (1)`, `name (2)`… in `parentId` until `write` succeeds: the unique index (parent, name key)
   * settles two simultaneous writes of one name, the loser taking the next number.
   */
  async function withFreeName(
    parentId: string,
    name: string,
    write: (name: string) => Promise<void>,
    excludeId?: string,
  ): Promise<string> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const taken = await repo.childNameKeysStartingWith(parentId, folderNameKey(name).slice(0, 200), excludeId);
      let n = 0;
      while (taken.has(folderNameKey(numberedFolderName(name, n)))) n++;
      const candidate = numberedFolderName(name, n);
      try {
        await write(candidate);
        return candidate;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw new AppError('CONFLICT', FOLDER_MESSAGES.noFreeName);
  }

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

  /**
   * Which of the stranded folders to put back at their space's root so every chain reaches a root within the cap:
   * each folder one level too deep (its parent is at the cap), one member of each cycle, and, below those, each folder
   * that would still be too deep once they moved (a walk over the stranded rows only, in memory).
   */
  function foldersToReattach(rows: (StrandedFolder & { parent_reached: boolean })[]) {
    const byId = new Map(rows.map((row) => [row.id, row]));
    const children = new Map<string, StrandedFolder[]>();
    for (const row of rows) {
      if (row.parent_id !== null && byId.has(row.parent_id)) {
        children.set(row.parent_id, [...(children.get(row.parent_id) ?? []), row]);
      }
    }
    const picked: { row: StrandedFolder; reason: 'cycle' | 'too deep' }[] = [];
    const placed = new Set<string>();
    const place = (top: StrandedFolder, reason: 'cycle' | 'too deep') => {
      picked.push({ row: top, reason });
      placed.add(top.id);
      const queue: [StrandedFolder, number][] = [[top, 1]];
      for (let i = 0; i < queue.length; i++) {
        const [folder, depth] = queue[i] ?? [top, 1];
        for (const child of children.get(folder.id) ?? []) {
          if (placed.has(child.id)) continue;
          placed.add(child.id);
          if (depth + 1 > MAX_FOLDER_DEPTH) {
            picked.push({ row: child, reason: 'too deep' });
            queue.push([child, 1]);
          } else queue.push([child, depth + 1]);
        }
      }
    };
    for (const row of rows) if (row.parent_reached) place(row, 'too deep');
    for (const row of rows) {
      // Not below a too-deep folder: up its parents it meets a cycle; the first folder met twice is on it.
      const seen = new Set<string>();
      let current: StrandedFolder | undefined = row;
      while (current && !placed.has(current.id) && !seen.has(current.id)) {
        seen.add(current.id);
        current = current.parent_id === null ? undefined : byId.get(current.parent_id);
      }
      if (current && !placed.has(current.id)) place(current, 'cycle');
    }
    return picked;
  }

  const encodeCursor = (cursor: Cursor, query: FolderListQuery) =>
    Buffer.from(JSON.stringify([cursor.phase, cursor.value, cursor.id, query.sort, query.order])).toString('base64url');

  function decodeCursor(raw: string, query: FolderListQuery): Cursor {
    try {
      const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
      if (
        Array.isArray(value) &&
        (value[0] === 0 || value[0] === 1) &&
        (typeof value[1] === 'string' || typeof value[1] === 'number') &&
        typeof value[2] === 'string' &&
        value[3] === query.sort &&
        value[4] === query.order
      ) {
        return { phase: value[0], value: value[1], id: value[2] };
      }
    } catch {
      // fall through
    }
    throw new AppError('BAD_REQUEST', FOLDER_MESSAGES.badCursor);
  }

  /** One page of folder `id`'s content: its folders first, then its files, in the order asked for. */
  async function page(
    id: string,
    query: FolderListQuery,
  ): Promise<Pick<FolderListing, 'folders' | 'files' | 'nextCursor'>> {
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, query);
    const nameKeys = query.names === undefined ? undefined : listedNameKeys(query.names);
    if (nameKeys?.length === 0) return { folders: [], files: [], nextCursor: null };
    const filter = { kind: query.type, nameKeys };
    const desc = query.order === 'desc';
    const folderColumn = FOLDER_SORT_COLUMN[query.sort];
    const fileColumn = FILE_SORT_COLUMN[query.sort];
    const folders =
      cursor?.phase === 1 ? [] : await repo.listChildFolders(id, folderColumn, desc, query.limit + 1, cursor, nameKeys);
    let nextCursor: string | null = null;
    let files: Awaited<ReturnType<SpacesRepository['listFolderFiles']>> = [];
    /** The cursor after the last folder of this page. */
    const afterFolders = () => {
      const last = folders.at(-1);
      return last ? encodeCursor({ phase: 0, value: last[folderColumn], id: last.id }, query) : null;
    };
    if (folders.length > query.limit) {
      folders.length = query.limit;
      nextCursor = afterFolders();
    } else {
      const room = query.limit - folders.length;
      if (room > 0) {
        files = await repo.listFolderFiles(
          id,
          fileColumn,
          desc,
          room + 1,
          cursor?.phase === 1 ? cursor : undefined,
          filter,
        );
        if (files.length > room) {
          files.length = room;
          const last = files.at(-1);
          if (last) {
            const value =
              fileColumn === 'name'
                ? (last.name_key ?? last.file_name)
                : fileColumn === 'size'
                  ? last.size
                  : last[fileColumn];
            nextCursor = encodeCursor({ phase: 1, value, id: last.id }, query);
          }
        }
      } else if ((await repo.listFolderFiles(id, fileColumn, desc, 1, undefined, filter)).length > 0) {
        // The page ended exactly with the last folder and files follow.
        nextCursor = afterFolders();
      }
    }
    return {
      folders: folders.map((f) => ({ id: f.id, name: f.name, createdAt: f.created_at, updatedAt: f.updated_at })),
      files: files.map((row) => presentFile(toStoredFile(row))),
      nextCursor,
    };
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
      input: { name: string; workspaceId?: string | undefined; parentId?: string | undefined },
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
      const chosen = await withFreeName(parent.id, name, (candidate) =>
        repo.transaction(async (trx) => {
          await repo.lockSpace(trx, parent);
          await checkPlace(trx, parent.id, 0, null);
          await repo.insertFolder(row(candidate), trx);
        }),
      );
      return present(row(chosen));
    },

    /** One page of the folder's content: its folders first, then its files, in the order asked for. */
    async list(actor: UserActor, id: string, query: FolderListQuery): Promise<FolderListing> {
      const folder = await authorized(actor, id, 'read');
      return { ...(await present(folder, actor)), ...(await page(id, query)) };
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
    async remove(actor: UserActor, id: string): Promise<DeleteFolderResponse> {
      const folder = await authorized(actor, id, 'delete');
      if (folder.parent_id === null) throw new AppError('BAD_REQUEST', FOLDER_MESSAGES.rootFixed);
      const below = await repo.folderIdsBelow(id);
      const files = await repo.trashFolder(id, below, actor.id, iso(clock.now()));
      return { id, deleted: true, folders: below.length + 1, files };
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

    /**
     * The start-up repair: folders whose chain of parents does not reach a root within `MAX_FOLDER_DEPTH` (a cycle,
     * or rows stored deeper than the cap before it existed) go back to the root of their space, under a free name,
     * logged and recorded as `folder.moved` by nobody. One bounded query that answers nothing on a healthy table.
     * Answers the folders it moved.
     */
    async repairTree(): Promise<{ id: string; reason: 'cycle' | 'too deep'; name: string }[]> {
      const repaired: { id: string; reason: 'cycle' | 'too deep'; name: string }[] = [];
      // One pass fixes everything; a second one confirms (a write made meanwhile may call for another).
      for (let pass = 0; pass < 3; pass++) {
        const stranded = await repo.strandedFolders();
        if (stranded.length === 0) break;
        for (const { row, reason } of foldersToReattach(stranded)) {
          const root = await repo.rootOf(row);
          if (!root) continue;
          const now = iso(clock.now());
          // A folder at the top of a trash entry keeps its name key (`/trash/<id>`): it holds no name in its parent.
          const name = row.name_key.startsWith('/trash/')
            ? (await repo.updateFolder(row.id, { parent_id: root.id, updated_at: now }), row.name)
            : await withFreeName(
                root.id,
                row.name,
                (chosen) =>
                  repo.updateFolder(row.id, {
                    parent_id: root.id,
                    name: chosen,
                    name_key: folderNameKey(chosen),
                    updated_at: now,
                  }),
                row.id,
              );
          repaired.push({ id: row.id, reason, name });
          log?.warn(
            { folderId: row.id, formerParentId: row.parent_id, rootId: root.id, reason, name },
            'folder tree repaired: a folder whose parents did not reach its root went back to the root of its space',
          );
          await events?.emit('folder.moved', {
            actor: null,
            target: `folder:${row.id}`,
            details: {
              name,
              from: { id: row.parent_id, name: null },
              to: { id: root.id, name: root.name },
              repaired: reason,
            },
          });
        }
      }
      return repaired;
    },

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
      return files.length;
    },
  };
}

export type FoldersService = ReturnType<typeof createFoldersService>;

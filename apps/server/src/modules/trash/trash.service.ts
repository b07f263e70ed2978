import type {
  EmptyTrashResponse,
  PurgeTrashItemResponse,
  RestoreTrashResponse,
  TrashItem,
  TrashList,
} from '@atrium/contracts';
import type { UserActor } from '../../auth/actor';
import { requireTrashItem, type TrashSubject } from '../../auth/policies/trash';
import { requireWorkspace } from '../../auth/policies/workspace';
import type { EventEmitter } from '../../events';
import type { RequestContext } from '../../lib/http/request-context';
import { iso, type Clock } from '../../lib/time';
import type { FilesRepository, FilesService } from '../files';
import type { FoldersService, SpacesRepository } from '../spaces';
import type { AccessResolver } from '../../auth/access-facts';
import type { TrashRepository, TrashRow } from './trash.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The most items `GET /api/trash` lists, and the batch size of emptying and purging. */
const LIST_LIMIT = 1000;
const BATCH = 200;

export interface TrashServiceDeps {
  repo: TrashRepository;
  filesRepo: Pick<FilesRepository, 'findAnyById'>;
  spacesRepo: Pick<SpacesRepository, 'findAnyFolder' | 'findFolder' | 'rootOf' | 'findWorkspace'>;
  files: Pick<FilesService, 'restoreInto' | 'purge'>;
  folders: Pick<FoldersService, 'restoreInto' | 'purge'>;
  access: Pick<AccessResolver, 'memberRole'>;
  clock: Clock;
  retentionDays: number;
  /** Restores and purges are emitted as audited changes (`file.restored`, `file.purged`). */
  events?: EventEmitter;
}

/** A trashed item as the policy and the operations read it. */
type Located = TrashSubject & {
  id: string;
  kind: 'file' | 'folder';
  name: string;
  /** Where it was: its folder (a file) or its parent (a folder). */
  placeId: string | null;
  ownerKey: string;
};

/**
 * The trash (docs/PRODUCT.md#trash-and-versions): what deleting a file or folder moved out of sight, per space, until
 * it is restored, purged by hand or purged by the `trash.purge` job after `TRASH_RETENTION_DAYS`. Who may see and act
 * on a space's trash is the trash policy's (`auth/policies/trash.ts`); names on restore follow the files' and folders'
 * own rules.
 */
export function createTrashService(deps: TrashServiceDeps) {
  const { repo, filesRepo, spacesRepo, files, folders, access, clock, retentionDays, events } = deps;
  const purgeAt = (trashedAt: string) => iso(new Date(Date.parse(trashedAt) + retentionDays * DAY_MS));

  const present = (row: TrashRow): TrashItem => ({
    id: row.id,
    kind: row.kind,
    name: row.name,
    size: row.size,
    contentType: row.content_type,
    fileCount: row.file_count,
    workspaceId: row.workspace_id,
    workspaceName: row.workspace_name,
    trashedAt: row.trashed_at,
    trashedBy: row.trashed_by === null ? null : { id: row.trashed_by, name: row.trashed_by_name ?? row.trashed_by },
    purgeAt: purgeAt(row.trashed_at),
  });

  /** Trashed item `id` (the top of what went to the trash together) with the actor's role in its space. */
  async function locate(actor: UserActor, id: string): Promise<Located | undefined> {
    const file = await filesRepo.findAnyById(id);
    const folder = file ? undefined : await spacesRepo.findAnyFolder(id);
    const base = file
      ? file.trashed_at !== null && file.trash_root_id === null
        ? {
            id,
            kind: 'file' as const,
            name: file.file_name,
            placeId: file.folder_id,
            workspaceId: file.workspace_id,
            ownerKey: file.owner_key,
          }
        : undefined
      : folder && folder.trashed_at !== null && folder.trash_root_id === null
        ? {
            id,
            kind: 'folder' as const,
            name: folder.name,
            placeId: folder.parent_id,
            workspaceId: folder.workspace_id,
            ownerKey: folder.owner_key ?? '',
          }
        : undefined;
    if (!base) return undefined;
    if (base.workspaceId === null) return { ...base, workspaceId: null };
    return { ...base, workspaceId: base.workspaceId, memberRole: await access.memberRole(base.workspaceId, actor.id) };
  }

  const authorized = (actor: UserActor, id: string) => requireTrashItem(actor, () => locate(actor, id));

  /** Removes one located item for good. */
  const purgeOne = async (item: { id: string; kind: 'file' | 'folder' }) =>
    item.kind === 'file' ? files.purge(item.id) : (await folders.purge(item.id), true);

  return {
    async list(actor: UserActor): Promise<TrashList> {
      const workspaceIds = await repo.deletableWorkspaces(actor.id);
      const rows = await repo.list({ ownerKey: actor.ownerKey, workspaceIds }, LIST_LIMIT);
      return { items: rows.map(present), retentionDays };
    },

    /**
     * Puts an item back where it was; when that folder is gone or in the trash itself, at the root of its space. A
     * name taken meanwhile becomes `name (1)`.
     */
    async restore(actor: UserActor, id: string, context: RequestContext = {}): Promise<RestoreTrashResponse> {
      const item = await authorized(actor, id);
      const place = item.placeId === null ? undefined : await spacesRepo.findFolder(item.placeId);
      const target =
        place ??
        (await spacesRepo.rootOf({
          workspace_id: item.workspaceId,
          owner_key: item.workspaceId === null ? item.ownerKey : null,
        }));
      if (!target) throw new Error(`no root folder for trashed ${item.kind} ${id}`);
      const name =
        item.kind === 'file'
          ? await files.restoreInto(id, target.id, item.name)
          : await folders.restoreInto(id, target.id, item.name);
      const toRoot = place === undefined;
      await events?.emit('file.restored', {
        actor: actor.ownerKey,
        target: `${item.kind}:${id}`,
        details: { name, toRoot },
        ...context,
      });
      return { id, kind: item.kind, name, folderId: target.id, toRoot };
    },

    async purge(actor: UserActor, id: string, context: RequestContext = {}): Promise<PurgeTrashItemResponse> {
      const item = await authorized(actor, id);
      await purgeOne(item);
      await events?.emit('file.purged', { actor: actor.ownerKey, target: `${item.kind}:${id}`, ...context });
      return { id, purged: true };
    },

    /** Empties the caller's personal trash, or with `workspaceId` that workspace's (editors and owners). */
    async empty(actor: UserActor, workspaceId?: string, context: RequestContext = {}): Promise<EmptyTrashResponse> {
      let scope: { ownerKey: string } | { workspaceIds: string[] } = { ownerKey: actor.ownerKey };
      if (workspaceId !== undefined) {
        await requireWorkspace(actor, workspaceId, 'delete', async (wsId) => {
          const row = await spacesRepo.findWorkspace(wsId, actor.id);
          return row && { ...row, memberRole: row.member_role };
        });
        scope = { workspaceIds: [workspaceId] };
      }
      let purged = 0;
      for (;;) {
        const batch = await repo.ids({ scope }, BATCH);
        if (batch.length === 0) break;
        for (const item of batch) if (await purgeOne(item)) purged += 1;
        if (batch.length < BATCH) break;
      }
      await events?.emit('file.purged', {
        actor: actor.ownerKey,
        target: workspaceId === undefined ? `trash:${actor.ownerKey}` : `workspace:${workspaceId}`,
        details: { emptied: purged },
        ...context,
      });
      return { purged };
    },

    /** The `trash.purge` job: removes what has been in any trash longer than `TRASH_RETENTION_DAYS`. */
    async purgeExpired(): Promise<number> {
      const before = iso(new Date(clock.now().getTime() - retentionDays * DAY_MS));
      let purged = 0;
      for (;;) {
        const batch = await repo.ids({ before }, BATCH);
        if (batch.length === 0) break;
        for (const item of batch) if (await purgeOne(item)) purged += 1;
        if (batch.length < BATCH) break;
      }
      return purged;
    },
  };
}

export type TrashService = ReturnType<typeof createTrashService>;

import { decodeKeysetCursor, encodeKeysetCursor } from '../../lib/keyset-cursor';
import { randomUUID } from 'node:crypto';
import {
  ACTIVITY_TYPES,
  HOME_RECENT_COUNT,
  PERSONAL_SPACE_NAME,
  STARRED_MAX,
  activityTypeOf,
  type ActivityEntry,
  type ActivityPage,
  type ActivityQuery,
  type AuditAction,
  type HomeItem,
  type HomeSummary,
  type RecentPage,
  type RecentQuery,
  type StarParams,
  type StarResult,
  type StarredList,
} from '@atrium/contracts';
import type { UserActor } from '../../auth/actor';
import type { AccessResolver } from '../../auth/access-facts';
import { folderRole, requireFolder, type FolderSubject } from '../../auth/policies/folder';
import { allows, type ResourceRole } from '../../auth/policies/roles';
import { requireWorkspace } from '../../auth/policies/workspace';
import { iso, type Clock } from '../../lib/time';
import type { FilesService } from '../files';
import type { ActivityRepository, FeedRow, FeedScope, ItemRow } from './activity.repository';

export interface ActivityServiceDeps {
  repo: ActivityRepository;
  access: Pick<AccessResolver, 'factsFor'>;
  files: Pick<FilesService, 'readableWithRole'>;
  clock: Clock;
  /** The name shared items are listed under (search's `SHARED_SPACE_NAME`). */
  sharedSpaceName: string;
}

const SHARED_LATELY_COUNT = 6;

const encodeCursor = encodeKeysetCursor;

const decodeCursor = (cursor: string | undefined): { at: string; id: string } | undefined =>
  cursor === undefined ? undefined : decodeKeysetCursor(cursor);

const parseDetails = (text: string | null): Record<string, unknown> | null => {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
};

/** The actions a feed shows: every type's, without shares and links unless the reader may share (`share`). */
function actionsOf(role: ResourceRole | null, type: ActivityQuery['type']): string[] {
  const mayShare = allows(role, 'share');
  return Object.entries(ACTIVITY_TYPES)
    .filter(([name]) => (type === undefined || name === type) && (mayShare || name !== 'shared'))
    .flatMap(([, actions]) => actions);
}

function presentEntry(row: FeedRow): ActivityEntry | undefined {
  const type = activityTypeOf(row.action);
  if (type === undefined) return undefined;
  const item =
    row.file_id !== null
      ? {
          kind: 'file' as const,
          id: row.file_id,
          name: row.file_name ?? '',
          folderId: row.file_folder,
          trashed: row.file_trashed !== null,
        }
      : row.folder_id !== null
        ? {
            kind: 'folder' as const,
            id: row.folder_id,
            name: row.folder_name ?? '',
            folderId: row.folder_parent,
            trashed: row.folder_trashed !== null,
          }
        : undefined;
  if (item === undefined) return undefined;
  return {
    id: row.id,
    at: row.at,
    action: row.action as AuditAction,
    type,
    actor: row.actor === null ? null : { id: row.actor_id ?? row.actor, name: row.actor_name ?? row.actor },
    item,
    details: parseDetails(row.details),
  };
}

/**
 * Activity feeds (docs/PRODUCT.md#activity), Starred and Recent (#starred-and-recent) and the home (#dashboard-home). Feeds
 * are the audit log's file and folder entries inside a workspace or a folder's subtree; reading one takes `read` on
 * the workspace or the folder (else the same 404 as a missing one), and share and link entries take `share` (as a
 * file's own activity, `fileDetailsView`).
 */
export function createActivityService({ repo, access, files, clock, sharedSpaceName }: ActivityServiceDeps) {
  async function page(scope: FeedScope, role: ResourceRole | null, query: ActivityQuery): Promise<ActivityPage> {
    const before = decodeCursor(query.cursor);
    const actions = actionsOf(role, query.type);
    const [rows, people] = await Promise.all([
      repo.feed(scope, { actions, actorId: query.actor, before }, query.limit + 1),
      repo.people(scope, actionsOf(role, undefined)),
    ]);
    const more = rows.length > query.limit;
    const shown = rows.slice(0, query.limit);
    const last = shown.at(-1);
    return {
      entries: shown.flatMap((row) => presentEntry(row) ?? []),
      nextCursor: more && last ? encodeCursor(last.at, last.id) : null,
      people,
    };
  }

  /** Folder `id` as the actor sees it (404 `FOLDER_NOT_FOUND` when missing or out of reach). */
  const readFolder = (actor: UserActor, id: string) =>
    requireFolder(actor, id, 'read', async (folderId): Promise<FolderSubject | undefined> => {
      const row = await repo.folder(folderId);
      if (!row) return undefined;
      const owns = row.workspace_id === null && row.owner_key === actor.ownerKey;
      const facts = await access.factsFor(actor, { workspaceId: row.workspace_id, folderId: row.id }, owns);
      return row.workspace_id === null
        ? { workspaceId: null, ownerKey: row.owner_key ?? '', shareRole: facts.shareRole }
        : { workspaceId: row.workspace_id, ownerKey: null, memberRole: facts.memberRole, shareRole: facts.shareRole };
    });

  const presentItem = (row: ItemRow): HomeItem => {
    const own = Boolean(row.own);
    return {
      kind: row.kind,
      id: row.id,
      name: row.name,
      contentType: row.kind === 'file' ? row.content_type : null,
      size: row.kind === 'file' && row.size !== null ? Number(row.size) : null,
      updatedAt: row.updated_at,
      place: own
        ? {
            spaceKind: row.workspace_id === null ? 'personal' : 'workspace',
            spaceId: row.workspace_id,
            spaceName: row.workspace_id === null ? PERSONAL_SPACE_NAME : (row.workspace_name ?? ''),
            folderId: row.folder_id,
          }
        : {
            spaceKind: 'shared',
            spaceId: null,
            spaceName: sharedSpaceName,
            folderId: row.folder_readable ? row.folder_id : null,
          },
      starred: Boolean(row.starred),
    };
  };

  async function recent(actor: UserActor, query: RecentQuery): Promise<RecentPage> {
    const rows = await repo.recent(actor, query.limit + 1, decodeCursor(query.cursor));
    const shown = rows.slice(0, query.limit);
    const last = shown.at(-1);
    return {
      items: shown.map(presentItem),
      nextCursor: rows.length > query.limit && last ? encodeCursor(last.updated_at, last.id) : null,
    };
  }

  return {
    /** `GET /api/workspaces/{id}/activity`: members only (404 for anyone else). */
    async workspace(actor: UserActor, id: string, query: ActivityQuery): Promise<ActivityPage> {
      const workspace = await requireWorkspace(actor, id, 'read', (workspaceId) =>
        repo.workspace(workspaceId, actor.id),
      );
      return page({ workspaceId: workspace.id }, workspace.memberRole, query);
    },

    /** `GET /api/folders/{id}/activity`: the folder's subtree, for whoever may read the folder. */
    async folder(actor: UserActor, id: string, query: ActivityQuery): Promise<ActivityPage> {
      const folder = await readFolder(actor, id);
      return page({ folderIds: await repo.subtree(id) }, folderRole(actor, folder), query);
    },

    recent,

    async starred(actor: UserActor): Promise<StarredList> {
      const rows = await repo.starred(actor, STARRED_MAX);
      return { items: rows.map((row) => ({ ...presentItem(row), starredAt: row.starred_at ?? row.updated_at })) };
    },

    /** `PUT /api/stars/{kind}/{id}`: whoever may read the item may star it (404 otherwise). */
    async star(actor: UserActor, { kind, id }: StarParams): Promise<StarResult> {
      if (kind === 'file') await files.readableWithRole(actor, id);
      else await readFolder(actor, id);
      await repo.addStar({
        id: randomUUID(),
        user_id: actor.id,
        file_id: kind === 'file' ? id : null,
        folder_id: kind === 'folder' ? id : null,
        created_at: iso(clock.now()),
      });
      return { kind, id, starred: true };
    },

    /** `DELETE /api/stars/{kind}/{id}`: removing one's own star needs no access (idempotent). */
    async unstar(actor: UserActor, { kind, id }: StarParams): Promise<StarResult> {
      await repo.removeStar(actor.id, kind, id);
      return { kind, id, starred: false };
    },

    /** `GET /api/home`: what the actor reaches in every space. */
    async home(actor: UserActor): Promise<HomeSummary> {
      const [reach, recentPage, workspaces, shared, starred] = await Promise.all([
        repo.reach(actor),
        recent(actor, { limit: HOME_RECENT_COUNT }),
        repo.workspaces(actor.id),
        repo.sharedLately(actor.id, 200),
        repo.countStars(actor.id),
      ]);
      const used = await Promise.all(workspaces.map((workspace) => repo.usedBytes(workspace.id)));
      return {
        counts: {
          files: reach.files,
          bytes: reach.bytes,
          workspaces: workspaces.length,
          sharedWithMe: shared.length,
          starred,
        },
        recent: recentPage.items,
        workspaces: workspaces.map((workspace, index) => ({
          id: workspace.id,
          name: workspace.name,
          role: workspace.role,
          rootFolderId: workspace.root_folder_id,
          usedBytes: used[index] ?? 0,
          files: workspace.files,
        })),
        sharedLately: shared.slice(0, SHARED_LATELY_COUNT).map((row) => ({
          kind: row.file_id !== null ? 'file' : 'folder',
          id: row.file_id ?? row.folder_id ?? '',
          name: (row.file_id !== null ? row.file_name : row.folder_name) ?? '',
          role: row.role,
          sharedBy: row.shared_by ?? 'Someone',
          sharedAt: row.shared_at,
          folderId: row.file_id !== null ? null : row.folder_id,
        })),
      };
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;

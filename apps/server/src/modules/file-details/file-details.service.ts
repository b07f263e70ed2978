import {
  FILE_ACTIVITY_MAX,
  PERSONAL_SPACE_NAME,
  type AuditAction,
  type FileAccessEntry,
  type FileDetails,
  type SearchLocation,
} from '@atrium/contracts';
import type { UserActor } from '../../auth/actor';
import { fileDetailsView, reachesInOwnSpaces } from '../../auth/policies/file';
import { linkState } from '../../auth/policies/link';
import type { Clock } from '../../lib/time';
import type { FilesService, StoredFile } from '../files';
import { type LinkRow, type LinksRepository, linkSubject, presentLink } from '../links';
import { SHARED_SPACE_NAME } from '../search';
import type { AccessFacts, AccessResolver } from '../../auth/access-facts';
import type { FileDetailsRepository } from './file-details.repository';

export interface FileDetailsServiceDeps {
  repo: FileDetailsRepository;
  files: Pick<FilesService, 'readableWithRole'>;
  links: Pick<LinksRepository, 'listFor'>;
  /** Whether a link's maker may still share its file (a suspended link is not active: `createLinkMakerCheck`). */
  linkMakerMayShare: (link: LinkRow) => Promise<boolean>;
  access: Pick<AccessResolver, 'sharedFolderIds'>;
  clock: Clock;
}

const parseDetails = (text: string | null): Record<string, unknown> | null => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
};

/**
 * A file's details panel (docs/PRODUCT.md#file-details): the file, where it is, its versions, who can read it, its
 * links and its activity (the audit entries about it, `audit_log.subject`). What the caller sees beyond the file is the
 * file policy's `fileDetailsView`.
 */
export function createFileDetailsService({
  repo,
  files,
  links,
  linkMakerMayShare,
  access,
  clock,
}: FileDetailsServiceDeps) {
  /** A file's links that work now (not expired, used up, or suspended because their maker may no longer share it). */
  const activeLinks = async (fileId: string, now: Date) => {
    const active = [];
    for (const row of await links.listFor({ fileId })) {
      if (linkState(linkSubject(row), now) === 'active' && (await linkMakerMayShare(row))) {
        active.push(presentLink(row, { suspended: false }));
      }
    }
    return active;
  };

  /** Where the caller finds the file: its space and folders, cut to the highest shared folder for share-only readers. */
  async function locationOf(
    actor: UserActor,
    file: StoredFile & Partial<AccessFacts>,
    path: { id: string; name: string }[],
  ): Promise<SearchLocation> {
    if (reachesInOwnSpaces(actor, file)) {
      return {
        spaceKind: file.workspaceId === null ? 'personal' : 'workspace',
        spaceId: file.workspaceId,
        spaceName:
          file.workspaceId === null ? PERSONAL_SPACE_NAME : ((await repo.workspaceName(file.workspaceId)) ?? ''),
        folderId: file.folderId,
        path,
      };
    }
    const shared = await access.sharedFolderIds(
      actor.id,
      path.map((crumb) => crumb.id),
    );
    const top = path.findIndex((crumb) => shared.has(crumb.id));
    const visible = top < 0 ? [] : path.slice(top);
    return {
      spaceKind: 'shared',
      spaceId: null,
      spaceName: SHARED_SPACE_NAME,
      folderId: visible.at(-1)?.id ?? null,
      path: visible,
    };
  }

  async function accessOf(file: StoredFile, folders: { id: string; name: string }[]): Promise<FileAccessEntry[]> {
    const entries: FileAccessEntry[] = [];
    if (file.workspaceId === null) {
      const owner = await repo.owner(file.ownerKey);
      entries.push({
        kind: 'owner',
        principal: { type: 'user', id: owner?.id ?? file.ownerKey, name: owner?.name ?? file.ownerKey },
        role: 'owner',
        via: null,
      });
    }
    const names = new Map(folders.map((folder) => [folder.id, folder.name]));
    const rows = await repo.access(
      file.workspaceId,
      file.id,
      folders.map((folder) => folder.id),
    );
    for (const row of rows) {
      entries.push({
        kind: row.kind,
        principal: { type: row.principal_type, id: row.principal_id, name: row.principal_name ?? row.principal_id },
        role: row.role,
        via: row.folder_id === null ? null : { folderId: row.folder_id, folderName: names.get(row.folder_id) ?? '' },
      });
    }
    return entries;
  }

  return {
    /** `GET /api/files/{id}/details`: 404 `FILE_NOT_FOUND` when the caller may not read the file. */
    async details(actor: UserActor, id: string): Promise<FileDetails> {
      const { file, role } = await files.readableWithRole(actor, id);
      const view = fileDetailsView(role);
      const folders = file.folderId === null ? [] : await repo.folderPath(file.folderId);
      const [versions, location, activity, uploadedAt] = await Promise.all([
        repo.versionStats(id),
        locationOf(actor, file, folders),
        repo.activity(`file:${id}`, FILE_ACTIVITY_MAX, view.shareActivity ? [] : ['share.', 'link.']),
        repo.uploadedAt(`file:${id}`),
      ]);
      const now = clock.now();
      return {
        id: file.id,
        name: file.fileName,
        contentType: file.contentType,
        size: file.size,
        sha256: file.sha256,
        // The first upload: its audit entry, else the oldest content still kept (the audit log's retention).
        createdAt: [uploadedAt, versions.oldest, file.uploadDate].reduce<string>(
          (first, at) => (at !== null && at < first ? at : first),
          file.uploadDate,
        ),
        updatedAt: file.uploadDate,
        location,
        versions: { count: versions.count, bytes: versions.bytes },
        yourRole: role,
        access: view.access ? await accessOf(file, folders) : null,
        links: view.links ? await activeLinks(id, now) : null,
        activity: activity.map((row) => ({
          action: row.action as AuditAction,
          actor: row.actor === null ? null : (row.actor_name ?? row.actor),
          at: row.at,
          details: parseDetails(row.details),
        })),
      };
    },
  };
}

export type FileDetailsService = ReturnType<typeof createFileDetailsService>;

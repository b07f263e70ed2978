/** How workspaces, people and new root folders look to the rest of the spaces module. */
import { randomUUID } from 'node:crypto';
import type { DirectoryUser, MemberRole, Workspace } from '@atrium/contracts';
import { folderNameKey } from './folder-names';
import type { FolderRow } from './folders.repository';
import type { DirectoryRow, WorkspaceView } from './workspaces.repository';

export const presentWorkspace = (row: WorkspaceView & { member_role: MemberRole }): Workspace => ({
  id: row.id,
  name: row.name,
  role: row.member_role,
  rootFolderId: row.root_folder_id,
  createdAt: row.created_at,
  memberCount: row.member_count,
});

export const presentPerson = (row: DirectoryRow): DirectoryUser => ({
  ownerKey: row.owner_key,
  name: row.name,
  nickname: row.nickname,
  email: row.email,
  picture: row.picture,
});

/** A folder row for a new root: `workspaceId` for a workspace's, `ownerKey` for a personal space's. */
export const rootFolderRow = (
  space: { workspaceId: string; ownerKey?: undefined } | { workspaceId?: undefined; ownerKey: string },
  name: string,
  createdBy: string | null,
  now: string,
): FolderRow => ({
  id: randomUUID(),
  workspace_id: space.workspaceId ?? null,
  owner_key: space.ownerKey ?? null,
  parent_id: null,
  name,
  name_key: folderNameKey(name),
  created_by: createdBy,
  created_at: now,
  updated_at: now,
  trashed_at: null,
  trashed_by: null,
  trash_root_id: null,
});

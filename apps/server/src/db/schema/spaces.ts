import type { Generated } from 'kysely';

// Spaces and what they hold: workspaces and their members, folders, files and their versions, shares and public links.

export type MemberRole = 'owner' | 'editor' | 'viewer';

export interface WorkspacesTable {
  id: string;
  name: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  root_folder_id: string;
}

export interface WorkspaceMembersTable {
  workspace_id: string;
  user_id: string;
  role: MemberRole;
  added_by: string | null;
  added_at: string;
  /** When the member accepted or first opened the workspace (migration 0026); null: its messages wait. */
  opened_at: Generated<string | null>;
}

/** Someone invited to a workspace who has not accepted yet (migration 0026): not a member. */
export interface WorkspaceInvitationsTable {
  workspace_id: string;
  user_id: string;
  role: MemberRole;
  invited_by: string | null;
  invited_at: string;
}

/** A folder of a workspace (`workspace_id`) or of a personal space (`owner_key`); a root has no parent. */
export interface FoldersTable {
  id: string;
  workspace_id: string | null;
  owner_key: string | null;
  parent_id: string | null;
  name: string;
  /** `fileNameKey(name)`: unique per parent folder. */
  name_key: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  /** When it went to the trash (migration 0016); null: not trashed. */
  trashed_at: string | null;
  /** Who moved it to the trash (the user who deleted it, or the folder it went with). */
  trashed_by: string | null;
  /** The trashed folder it went to the trash with; null when trashed itself (or not trashed). */
  trash_root_id: string | null;
}

export interface FilesTable {
  id: string;
  owner_key: string;
  /** The user's label only; never used as a path. */
  file_name: string;
  /** `fileNameKey(file_name)`, unique per owner; null only for same-named files stored before migration 0009. */
  name_key: string | null;
  size: number;
  content_type: string;
  sha256: string;
  blob_key: string;
  upload_date: string;
  /** The folder it is in (migration 0012); null: not yet placed (stored by the spec's upload before folders existed). */
  folder_id: string | null;
  /** The workspace it is in; null: the personal space of `owner_key`. */
  workspace_id: string | null;
  /** The user who uploaded it (null for files stored before 0012 whose owner never signed in). */
  uploaded_by: string | null;
  /** When it went to the trash (migration 0016); null: not trashed. */
  trashed_at: string | null;
  /** Who moved it to the trash (the user who deleted it, or the folder it went with). */
  trashed_by: string | null;
  /** The trashed folder it went to the trash with; null when trashed itself (or not trashed). */
  trash_root_id: string | null;
  /** The modification time its client declared (migration 0039: WebDAV `X-OC-Mtime`); null: `upload_date`. */
  modified_at?: string | null;
}

/** An older content of a file (migration 0016); the current one is the `files` row's. */
export interface FileVersionsTable {
  id: string;
  file_id: string;
  blob_key: string;
  size: number;
  content_type: string;
  sha256: string;
  /** Who uploaded this content (null: unknown or deleted user). */
  uploaded_by: string | null;
  /** When this content was uploaded (the file's `upload_date` while it was current). */
  created_at: string;
}

/** A file or a folder (exactly one) shared with a user or a workspace (exactly one). */
export interface SharesTable {
  id: string;
  file_id: string | null;
  folder_id: string | null;
  grantee_user_id: string | null;
  grantee_workspace_id: string | null;
  role: 'editor' | 'viewer';
  created_by: string | null;
  created_at: string;
}

/** A public link to a file or a folder (exactly one). */
export interface LinksTable {
  id: string;
  /** ≥ 128 bits of randomness, base64url. */
  token: string;
  file_id: string | null;
  folder_id: string | null;
  created_by: string | null;
  created_at: string;
  expires_at: string | null;
  password_hash: string | null;
  max_downloads: number | null;
  download_count: Generated<number>;
  /** 0 or 1 in both dialects: a folder's upload-only "file drop". */
  allow_upload: Generated<number>;
  revoked_at: string | null;
  /** Bytes the counted downloads allow (each adds its file's size; migration 0025). */
  bytes_allowed: Generated<number>;
  /** Bytes sent through the link (whole downloads and every range; refunded when a transfer stops early). */
  bytes_served: Generated<number>;
}

/** A person's star on a file or a folder (migration 0029; exactly one of the two). */
/** A file stored through a file-drop link (migration 0031): the link's "files received". */
export interface LinkArrivalsTable {
  id: string;
  link_id: string;
  file_id: string;
  /** The name the file was stored under. */
  file_name: string;
  created_at: string;
}

export interface StarsTable {
  id: string;
  user_id: string;
  file_id: string | null;
  folder_id: string | null;
  created_at: string;
}

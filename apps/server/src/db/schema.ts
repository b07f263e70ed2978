import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Timestamps are ISO-8601 UTC strings in both
 * dialects (they sort correctly as text); byte counts are bigint columns read
 * back as numbers.
 */
export interface UsersTable {
  id: string;
  owner_key: string;
  name: string | null;
  nickname: string | null;
  email: string | null;
  picture: string | null;
  role: 'user' | 'admin';
  oidc_issuer: string | null;
  oidc_subject: string | null;
  created_at: string;
  updated_at: string;
  /** When the first sign-in was greeted; null while the greeting is due (`GET /api/me` `firstLogin`). */
  first_login_completed_at: string | null;
  /** When an admin disabled the account (migration 0014); null: enabled. A disabled user cannot sign in. */
  disabled_at: string | null;
  /** The user's own storage quota in bytes; null: `USER_QUOTA_BYTES`. */
  quota_bytes: number | null;
  /** The last successful sign-in. */
  last_sign_in_at: string | null;
}

export interface SessionsTable {
  /** SHA-256 of the cookie token: a database leak does not leak live sessions. */
  id: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  user_agent: string | null;
  ip: string | null;
}

/** Failed sign-ins per key (`ip:…` or `user:…`) in a fixed window. */
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
  /** The folder it is in (migration 0012); null: not yet placed (stored by the spec's upload before issue 15's phase 2). */
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
}

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

/** An instance setting an admin changes (migration 0026): one text value per key. */
export interface SettingsTable {
  key: string;
  value: string;
  updated_by: string | null;
  updated_at: string;
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

/** API keys for the AI compatibility endpoints; the key itself is never stored. */
export interface AiApiKeysTable {
  id: string;
  name: string;
  /** SHA-256 (hex) of the key. */
  key_hash: string;
  /** The first characters of the key, shown in lists. */
  prefix: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** When the key stops working; null: never. */
  expires_at: string | null;
}

export interface NotificationsTable {
  /** The notification id: monotonic (autoincrement / bigserial). */
  seq: Generated<number>;
  message: string;
  type: 'welcome' | 'admin' | 'other' | 'workspace' | 'membership';
  /** null: everyone. */
  audience_user_id: string | null;
  /** Who sees it (migration 0012): everyone, one workspace's members or one user. */
  audience_type: Generated<'all' | 'workspace' | 'user'>;
  /** The workspace or user id; null for `all`. */
  audience_id: string | null;
  created_by: string | null;
  dedupe_key: string | null;
  created_at: string;
  /** Live streams it was written to, summed over every instance (migration 0019; admin notifications only). */
  delivered_live: Generated<number>;
  /** Web Push sends that the push service accepted / refused or could not be reached for (migration 0019). */
  push_sent: Generated<number>;
  push_failed: Generated<number>;
  /** JSON of what a workspace message or membership notice names (migration 0026); null for the others. */
  details: Generated<string | null>;
}

/** A message an admin scheduled for later (migration 0019). */
export interface ScheduledNotificationsTable {
  id: string;
  message: string;
  audience_type: 'all' | 'workspace' | 'user';
  /** The workspace or user id; null for `all`. */
  audience_id: string | null;
  created_by: string | null;
  /** ISO-8601 UTC (`toISOString`), so text order is time order. */
  send_at: string;
  state: Generated<'pending' | 'sending' | 'sent' | 'cancelled'>;
  claimed_at: string | null;
  sent_at: string | null;
  cancelled_at: string | null;
  notification_seq: number | null;
  created_at: string;
}

export interface NotificationSubscribersTable {
  user_id: string;
  created_at: string;
  updated_at: string;
}

export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: string;
  updated_at: string;
  /** Failed sends in a row (migration 0010); a success resets it. */
  failed_sends: Generated<number>;
}

export interface ContactMessagesTable {
  id: string;
  name: string;
  email: string;
  message: string;
  /** The sender's IP address, for the per-address rate limit. */
  ip: string;
  user_agent: string | null;
  created_at: string;
  /** When an admin marked it read; null while unread. */
  read_at: string | null;
  /** When an admin marked it handled; null while open. */
  handled_at: string | null;
}

export interface RateLimitsTable {
  /** What is counted, e.g. `voice-command:ip:203.0.113.7`. */
  key: string;
  hits: number;
  window_started_at: string;
}

export interface JobLeasesTable {
  /** The job's name. */
  name: string;
  /** The instance that runs it until `expires_at`. */
  holder: string;
  expires_at: string;
}

/** One audited action (migration 0014). Inserted and read only; the retention job deletes old entries. */
export interface AuditLogTable {
  id: string;
  at: string;
  /** The acting user's owner key; null when nobody is signed in (a failed sign-in). */
  actor: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  /** JSON object text, or null. */
  details: string | null;
  /** The file or folder the entry is about (`file:<id>`, `folder:<id>`; migration 0022), for its activity. */
  subject: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  files: FilesTable;
  file_versions: FileVersionsTable;
  ai_api_keys: AiApiKeysTable;
  notifications: NotificationsTable;
  notification_subscribers: NotificationSubscribersTable;
  scheduled_notifications: ScheduledNotificationsTable;
  push_subscriptions: PushSubscriptionsTable;
  contact_messages: ContactMessagesTable;
  rate_limits: RateLimitsTable;
  job_leases: JobLeasesTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  workspace_invitations: WorkspaceInvitationsTable;
  settings: SettingsTable;
  folders: FoldersTable;
  shares: SharesTable;
  links: LinksTable;
  audit_log: AuditLogTable;
  jobs: JobsTable;
  file_insights: FileInsightsTable;
  analysis_settings: AnalysisSettingsTable;
  user_preferences: UserPreferencesTable;
  people_settings: PeopleSettingsTable;
  people: PeopleTable;
  faces: FacesTable;
}

/** The durable job queue (migration 0018, renamed in 0027): one job per (file, kind, content hash). */
export interface JobsTable {
  id: string;
  kind: string;
  file_id: string;
  content_sha: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  run_after: string;
  locked_by: string | null;
  locked_until: string | null;
  /** 0…1 while running. */
  progress: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** What background analysis found in a file (migration 0018); JSON columns are text. */
export interface FileInsightsTable {
  file_id: string;
  status: 'pending' | 'running' | 'done' | 'failed' | 'unsupported';
  progress: number | null;
  content_sha: string;
  text: string | null;
  transcript: string | null;
  caption: string | null;
  tags: string | null;
  objects: string | null;
  faces: string | null;
  colors: string | null;
  engine: string | null;
  model_version: string | null;
  analysed_at: string | null;
  error: string | null;
  updated_at: string;
}

/** A workspace's analysis setting (migration 0018; no row: `on`). */
export interface AnalysisSettingsTable {
  workspace_id: string;
  analysis: 'on' | 'no-faces' | 'off';
  updated_at: string;
}

/** A user's own settings (migration 0021): a JSON object (`UserPreferences` in contracts). */
export interface UserPreferencesTable {
  user_id: string;
  preferences: string;
  updated_at: string;
}
/** People is on for a space (migration 0020; no row: off). `space_key`: a workspace id or `personal:<owner key>`. */
export interface PeopleSettingsTable {
  space_key: string;
  workspace_id: string | null;
  updated_at: string;
}

/** A person of a space (migration 0020). */
export interface PeopleTable {
  id: string;
  space_key: string;
  workspace_id: string | null;
  name: string | null;
  cover_face_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A face found in a photo (migration 0020): box as fractions of the image, descriptor as JSON (128 numbers). */
export interface FacesTable {
  id: string;
  file_id: string;
  space_key: string;
  /** Null: removed from every person (never clustered again). */
  person_id: string | null;
  box_left: number;
  box_top: number;
  box_width: number;
  box_height: number;
  descriptor: string;
  created_at: string;
}

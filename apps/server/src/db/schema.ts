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
}

export interface NotificationsTable {
  /** The notification id: monotonic (autoincrement / bigserial). */
  seq: Generated<number>;
  message: string;
  type: 'welcome' | 'admin' | 'other';
  /** null: everyone. */
  audience_user_id: string | null;
  created_by: string | null;
  dedupe_key: string | null;
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
}

export interface RateLimitsTable {
  /** What is counted, e.g. `voice-command:ip:203.0.113.7`. */
  key: string;
  hits: number;
  window_started_at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  files: FilesTable;
  ai_api_keys: AiApiKeysTable;
  notifications: NotificationsTable;
  notification_subscribers: NotificationSubscribersTable;
  push_subscriptions: PushSubscriptionsTable;
  contact_messages: ContactMessagesTable;
  rate_limits: RateLimitsTable;
}

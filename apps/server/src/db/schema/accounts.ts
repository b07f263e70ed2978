// Accounts: users, their sessions and preferences, API keys, and the rate-limit counters (sign-in, voice, contact).

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

/** Why a session ended (migration 0030): `signed_out` (signed out, revoked, replaced) or `expired`. */
export type SessionEndReason = 'signed_out' | 'expired';

/** A session that ended, remembered for a while so a 401 can say why (docs/PRODUCT.md#session-end-reasons). */
export interface EndedSessionsTable {
  /** The ended session's id (its token's SHA-256). */
  id: string;
  user_id: string;
  reason: SessionEndReason;
  ended_at: string;
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

/** A user's own settings (migration 0021): a JSON object (`UserPreferences` in contracts). */
export interface UserPreferencesTable {
  user_id: string;
  preferences: string;
  updated_at: string;
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

export interface RateLimitsTable {
  /** What is counted, e.g. `voice-command:ip:203.0.113.7`. */
  key: string;
  hits: number;
  window_started_at: string;
}

/** An app password (migration 0035): HTTP Basic for WebDAV and sync clients. */
export interface AppPasswordsTable {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 (hex) of the secret. */
  password_hash: string;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
  revoked_at: string | null;
}

/** A WebDAV dead property (migration 0036): set by PROPPATCH on a file or folder. */
export interface DavPropertiesTable {
  resource_id: string;
  ns: string;
  name: string;
  /** The property's content as XML. */
  value: string;
}

/** A WebDAV write lock (migration 0036). */
export interface DavLocksTable {
  token: string;
  /** The locked file or folder. */
  resource_id: string;
  user_id: string;
  scope: 'exclusive' | 'shared';
  depth: '0' | 'infinity';
  /** The lock owner's XML, as the client sent it. */
  owner: string;
  timeout_seconds: number;
  expires_at: string;
  created_at: string;
}

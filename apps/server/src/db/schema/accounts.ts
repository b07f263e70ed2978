// Accounts: users, their sessions and preferences, API keys, and the rate-limit counters (sign-in, voice, contact).
import type { Generated } from 'kysely';

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

/** A local account's sign-in (migration 0032): the username (unique in any letter case) and its scrypt hash. */
export interface LocalCredentialsTable {
  user_id: string;
  username: string;
  /** `username` in lower case: unique. */
  username_key: string;
  /** null until the person sets a password through the link an admin handed over. */
  password_hash: string | null;
  password_changed_at: string | null;
}

/** An invitation by email (migration 0032) to the instance (`workspace_id` null) or to a workspace, with a role. */
export interface InvitationsTable {
  id: string;
  /** SHA-256 (hex) of the link's token; the token itself is never stored. */
  token_hash: string;
  email: string;
  workspace_id: string | null;
  /** A workspace role (owner, editor, viewer) or, for the instance, user or admin. */
  role: string;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
  accepted_user_id: string | null;
  /** 1 when made for a workspace (so a deleted workspace, whose id the row keeps, is told apart from the instance). */
  for_workspace: Generated<number>;
}

/** A password reset link of a local account (migration 0032); single use. */
export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** App passwords for WebDAV clients (migration 0035); only the secret's SHA-256 is stored. */
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

/** A Nextcloud Login Flow v2 request (migration 0038): tokens by their SHA-256 only. */
export interface NcLoginFlowsTable {
  poll_token_hash: string;
  login_token_hash: string;
  /** The client's name, from its User-Agent (the app password is named after it). */
  client_name: string;
  created_at: string;
  expires_at: string;
  /** Who granted access (null until then). */
  user_id: string | null;
  granted_at: string | null;
}

/** A chunked upload of a Nextcloud client (migration 0038); its chunks are blobs under `dav-uploads/<id>/`. */
export interface DavChunkedUploadsTable {
  id: string;
  user_id: string;
  /** The client's name for the upload (the folder under `/remote.php/dav/uploads/{user}/`). */
  transfer_id: string;
  /** Chunking v2: the target path from MKCOL's `Destination` header. */
  destination: string | null;
  total_length: number | null;
  created_at: string;
  updated_at: string;
}

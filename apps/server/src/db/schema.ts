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

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  contact_messages: ContactMessagesTable;
}

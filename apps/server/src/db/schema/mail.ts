import type { Generated } from 'kysely';

// Email (migration 0034): each person's opt-in and the outbox of messages to send.

/** A person's email opt-in (1: on); no row: everything off. */
export interface MailPreferencesTable {
  user_id: string;
  share_notices: Generated<number>;
  member_notices: Generated<number>;
  daily_digest: Generated<number>;
  /** When the last digest was sent (ISO-8601 UTC); the next one holds only what is newer. */
  last_digest_at: string | null;
  updated_at: string;
}

/** One message to send; kept after sending (sent_at) or giving up (gave_up_at) for the system's view. */
export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** JSON object of extra headers (List-Unsubscribe…). */
  headers: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  /** Claimed by a sender until then; null: free. */
  claimed_until: string | null;
  sent_at: string | null;
  gave_up_at: string | null;
  last_error: string | null;
  created_at: string;
}

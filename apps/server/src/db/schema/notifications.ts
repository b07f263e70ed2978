import type { Generated } from 'kysely';

// Notifications: the messages, those scheduled for later, who is subscribed, and Web Push subscriptions.

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

/** A person's read and clear markers (migration 0028): notifications up to each id are read / hidden for them. */
export interface NotificationMarksTable {
  user_id: string;
  read_through: Generated<number>;
  cleared_through: Generated<number>;
  updated_at: string;
}

/** One notification a person read above their `read_through` marker (migration 0028). */
export interface NotificationReadsTable {
  user_id: string;
  seq: number;
  read_at: string;
}

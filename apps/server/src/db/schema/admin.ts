// What the admin console keeps: instance settings, the audit log and contact-form messages.

/** An instance setting an admin changes (migration 0026): one text value per key. */
export interface SettingsTable {
  key: string;
  value: string;
  updated_by: string | null;
  updated_at: string;
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

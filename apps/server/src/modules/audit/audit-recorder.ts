import type { AuditAction } from '@atrium/contracts';

/** Where a request came from, as the audit log keeps it. */
export interface AuditContext {
  ip?: string | undefined;
  userAgent?: string | undefined;
  requestId?: string | undefined;
}

/** One audited action. `actor` is the acting user's owner key (null: nobody signed in). */
export interface AuditRecord extends AuditContext {
  action: AuditAction;
  actor: string | null;
  /** What was acted on, as `kind:id` (`user:bob`, `file:<id>`, `share:<id>`). */
  target?: string | null | undefined;
  /**
   * The file or folder the entry is about, when the target is something else (a share or a link on it): `file:<id>`
   * or `folder:<id>`. Default: the target when it is a file or folder. A file's activity reads entries by it.
   */
  subject?: string | null | undefined;
  details?: Record<string, unknown> | undefined;
}

/**
 * Appends one entry: the seam the audit subscriptions (`audit.subscriptions.ts`) record through. Other modules never
 * call it: they emit the audited event. It never throws — a failure to write the entry is logged, the action it
 * describes has already happened.
 */
export interface AuditRecorder {
  record(entry: AuditRecord): Promise<void>;
}

/** The subject an entry gets: the one given, else its target when that is a file or folder. */
export const subjectOf = (entry: Pick<AuditRecord, 'target' | 'subject'>): string | null =>
  entry.subject ?? (entry.target && /^(file|folder):/.test(entry.target) ? entry.target : null);

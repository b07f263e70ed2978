/**
 * What each domain event carries (docs/ARCHITECTURE.md#where-modules-meet-domain-events). Plain facts, described here so that the
 * events layer imports no module; modules use these types for what they emit.
 */
import type { AuditAction, MemberRole } from '@atrium/contracts';

/** Where a change came from: who did it (an owner key; null: nobody signed in) and the request it arrived on. */
export interface EventContext {
  actor: string | null;
  ip?: string | undefined;
  userAgent?: string | undefined;
  requestId?: string | undefined;
}

/** A stored file's facts, as the modules that react to a stored file need them. */
export interface StoredFile {
  id: string;
  /** Whose personal space the file is in (the file policy reads it); for a workspace file, who put it there. */
  ownerKey: string;
  /** The workspace the file is in; null: the personal space of `ownerKey`. */
  workspaceId: string | null;
  /** The folder the file is in (null only for a file stored before folders existed and not yet placed). */
  folderId: string | null;
  fileName: string;
  size: number;
  contentType: string;
  sha256: string;
  blobKey: string;
  /** ISO-8601 UTC. */
  uploadDate: string;
  /** ISO-8601 UTC: the modification time its client declared (WebDAV `X-OC-Mtime`); null or absent: `uploadDate`. */
  modifiedAt?: string | null;
}

/** Someone was added to a workspace (or invited to it, when members must accept). */
export interface MemberAdded {
  userId: string;
  workspace: { id: string; name: string };
  by: { id: string; name: string };
  role: MemberRole;
  state: 'added' | 'invited';
}

/** A member's role changed: `userId` is now `role` in `workspace`, changed by `by`. */
export interface MemberChanged {
  userId: string;
  workspace: { id: string; name: string };
  by: { id: string; name: string };
  role: MemberRole;
  previousRole: MemberRole;
}

/** A file stored through a file-drop link into `folderId`; `makerId` is the link's maker (user id; null: gone). */
export interface DropReceived {
  linkId: string;
  makerId: string | null;
  folderId: string;
  fileName: string;
}

/** An invitation to join the instance (or a workspace, with a role), for the invitee's email. */
export interface InvitationSent {
  invitationId: string;
  email: string;
  /** The absolute address of the invitation page (`PUBLIC_URL/invite/{token}`). */
  url: string;
  inviter: { id: string; name: string };
  workspace: { id: string; name: string } | null;
  role: string;
  /** ISO-8601 UTC. */
  expiresAt: string;
}

/** A password reset link for a local account. */
export interface PasswordResetIssued {
  userId: string;
  email: string;
  name: string;
  /** The absolute address of the reset page. */
  url: string;
  /** ISO-8601 UTC. */
  expiresAt: string;
}

/**
 * An audited change: what the audit log keeps of it. `target` is what was acted on (`kind:id`), `subject` the file
 * or folder the entry is about when the target is something else.
 */
export interface AuditedChange extends EventContext {
  target?: string | null | undefined;
  subject?: string | null | undefined;
  details?: Record<string, unknown> | undefined;
}

/** Events that modules react to (besides the audit log). */
export interface ReactionEvents {
  /** A file's content was stored (new upload, replacement, finished tus upload, restored version), its row written. */
  'file.stored': { file: StoredFile };
  /**
   * Files and folders were deleted for good (a trash item purged, a trash emptied, the `trash.purge` job, a workspace
   * deleted), their rows gone: what other modules keep about them by id goes too (WebDAV locks and dead properties).
   */
  'items.purged': { fileIds: string[]; folderIds: string[] };
  /** Background analysis finished a file: `text` is what it read (OCR, transcript, document text, tags, caption). */
  'file.analysed': { fileId: string; text: string };
  /** Names of people changed for these files (a person named, renamed, merged, a face moved). */
  'people.changed': { fileIds: string[] };
  /** Files whose analysis must run again (a person's faces were reset). */
  'file.reanalyse': { fileIds: string[] };
  'member.added': MemberAdded;
  /** A file or folder was shared with these people (a person, or a workspace's members but the sharer). */
  'share.granted': {
    recipientIds: string[];
    message: string;
    by: string;
    /** What was shared, so the notice opens it (its workspace; null: a personal space). */
    item?: { kind: 'file' | 'folder'; id: string; workspaceId: string | null };
  };
  /** A member's role in a workspace changed (by someone else). */
  'member.changed': MemberChanged;
  /** A file arrived through a file-drop link (one event per stored file). */
  'drop.received': DropReceived;
  /** An invitation was made or sent again: the mail module sends `url` (absolute) to `email` when email is on. */
  'invitation.sent': InvitationSent;
  /** A password reset link was issued for a local account that has an email address (mail sends it). */
  'password.reset.issued': PasswordResetIssued;
  /**
   * Someone asked to sign up with `email` (an allowed domain): mail sends the link that verifies it, or, when the
   * address has an account already (`expiresAt` null), says so with a link to sign in.
   */
  'signup.requested': { email: string; url: string; expiresAt: string | null };
}

/** Every audited change is an event named after its audit action; the audit module records each one. */
export type AuditedEvents = { [A in AuditAction]: AuditedChange };

/** The events, by name. */
export type DomainEvents = ReactionEvents & AuditedEvents;

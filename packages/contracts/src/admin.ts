import { z } from 'zod';
import { CheckStatus } from './health';
import { endpoint } from './endpoint';

/**
 * The admin console (docs/PRODUCT.md#admin-console-users-and-audit-log): users and roles, per-user quotas, the audit
 * log. Every route is admin-only (403 for other users, 401 without a session).
 */

/** A user as the admin console lists them. `userId` is the owner key the spec's `{userId}` paths use. */
export const AdminUser = z
  .object({
    userId: z.string().describe('owner key'),
    id: z.string().describe('internal id'),
    name: z.string().nullable(),
    email: z.string().nullable(),
    role: z.enum(['user', 'admin']),
    disabled: z.boolean(),
    builtIn: z.boolean().describe('the built-in `admin` account (cannot be demoted or disabled)'),
    localAccount: z
      .boolean()
      .describe('a local account (username and password here): the admin may issue it a password reset link'),
    quotaBytes: z.number().int().nullable().describe('the user’s own quota; null: the default (`USER_QUOTA_BYTES`)'),
    effectiveQuotaBytes: z.number().int().describe('the quota that applies now'),
    usedBytes: z.number().int().describe('bytes of the user’s personal files'),
    lastSignInAt: z.string().nullable().describe('ISO-8601'),
    sessions: z.number().int().describe('sessions not yet expired'),
    createdAt: z.string().describe('ISO-8601'),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof AdminUser>;

/** GET /api/admin/users: an array, ordered by owner key; the next page's cursor is in `X-Next-Cursor` (`NEXT_CURSOR_HEADER`; absent: last page). */
export const AdminUserList = z.array(AdminUser).meta({ id: 'AdminUserList' });
export type AdminUserList = z.infer<typeof AdminUserList>;

export const ADMIN_USERS_PAGE_MAX = 100;

export const AdminUsersQuery = z.object({
  q: z.string().trim().max(200).optional().describe('matches owner key, name, nickname or email (contains)'),
  cursor: z.string().max(400).optional().describe('from `X-Next-Cursor` of the previous page'),
  limit: z.coerce.number().int().min(1).max(ADMIN_USERS_PAGE_MAX).default(50),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuery>;

export const AdminUserParams = z.object({ userId: z.string().min(1).max(200) });

/** PATCH /api/admin/users/{userId}: any of the three; an empty object changes nothing. */
export const AdminUserPatch = z
  .object({
    role: z.enum(['user', 'admin']).optional(),
    disabled: z.boolean().optional(),
    quotaBytes: z
      .number()
      .int('The quota must be a whole number of bytes.')
      .min(0, 'The quota cannot be negative.')
      .max(Number.MAX_SAFE_INTEGER)
      .nullable()
      .optional()
      .describe('bytes; null: back to the default'),
  })
  .strict()
  .meta({ id: 'AdminUserPatch' });
export type AdminUserPatch = z.infer<typeof AdminUserPatch>;

/** DELETE /api/admin/users/{userId}/sessions. For yourself, every session but the one making the request ends. */
export const SessionsRevoked = z.object({ revoked: z.number().int() }).meta({ id: 'SessionsRevoked' });
export type SessionsRevoked = z.infer<typeof SessionsRevoked>;

/**
 * POST /api/admin/users/{userId}/transfer: moves every personal file and folder of `userId` (a disabled account)
 * into a new folder "From <their name>" of `toUserId`'s personal space.
 */
export const TransferFilesRequest = z
  .object({ toUserId: z.string().trim().min(1, 'Choose who receives the files.').max(200).describe('owner key') })
  .strict()
  .meta({ id: 'TransferFilesRequest' });
export type TransferFilesRequest = z.infer<typeof TransferFilesRequest>;

export const TransferFilesResponse = z
  .object({
    from: z.string().describe('owner key of the person the files came from'),
    to: z.string().describe('owner key of the recipient'),
    folderId: z.string().describe('the new folder in the recipient’s personal space'),
    folderName: z.string(),
    files: z.number().int().describe('files moved, trashed ones included'),
    folders: z.number().int().describe('folders moved (below the new one), trashed ones included'),
    bytes: z.number().int().describe('bytes that now count against the recipient’s quota (versions included)'),
  })
  .meta({ id: 'TransferFilesResponse' });
export type TransferFilesResponse = z.infer<typeof TransferFilesResponse>;

/** The messages of the refusals of the users screen (400, 404, 409). */
export const ADMIN_USER_MESSAGES = {
  builtIn: 'The built-in admin account cannot be demoted or disabled.',
  self: 'You cannot remove your own admin role or disable your own account. Ask another admin.',
  notFound: 'No user with this user id.',
  recipientNotFound: 'No user with that user id can receive the files.',
  transferToSelf: 'Choose someone else to receive the files.',
  transferNotDisabled: 'Disable this account before transferring its files.',
  recipientDisabled: 'That account is disabled. Choose someone whose account is enabled to receive the files.',
} as const;

/** Every audited action. Sharing, links and workspaces record theirs through the same recorder. */
export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.sign_out',
  'user.role_changed',
  'user.disabled',
  'user.enabled',
  'user.quota_changed',
  'user.sessions_revoked',
  'user.files_transferred',
  'api_key.created',
  'api_key.revoked',
  'notification.published',
  'notification.scheduled',
  'notification.schedule_cancelled',
  'file.uploaded',
  'file.version_added',
  'file.renamed',
  'file.moved',
  'file.version_restored',
  'file.deleted',
  'file.restored',
  'file.purged',
  'folder.renamed',
  'folder.moved',
  'share.created',
  'share.revoked',
  'link.created',
  'link.revoked',
  'workspace.member_added',
  'workspace.member_changed',
  'workspace.member_removed',
  'workspace.member_invited',
  'workspace.member_accepted',
  'workspace.member_declined',
  'settings.changed',
  'factor.added',
  'factor.removed',
  'mfa.policy.changed',
  'invitation.created',
  'invitation.accepted',
  'invitation.revoked',
  'invitation.resent',
  'account.created',
  'password.changed',
  'password.reset',
  'app_password.created',
  'app_password.revoked',
  'ai_model.uploaded',
  'ai_model.selected',
  'ai_model.deleted',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

export const AuditEntry = z
  .object({
    id: z.string(),
    at: z.string().describe('ISO-8601'),
    actor: z.string().nullable().describe('owner key of who acted; null: nobody signed in (a failed sign-in)'),
    action: AuditAction,
    target: z.string().nullable().describe('what was acted on, e.g. `user:bob`, `file:<id>`'),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    requestId: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AUDIT_PAGE_MAX = 200;

const isoDate = z
  .string()
  .max(40)
  .refine((value) => !Number.isNaN(Date.parse(value)), 'Use an ISO-8601 date or time, e.g. 2026-11-24T10:00:00Z.');

/** GET /api/admin/audit and /api/admin/audit.csv: newest first; `from` inclusive, `to` exclusive. */
export const AuditQuery = z.object({
  actor: z.string().trim().min(1).max(200).optional().describe('owner key'),
  action: AuditAction.optional(),
  target: z.string().trim().min(1).max(300).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(50),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** GET /api/admin/audit.csv: the same filters, without paging (every matching entry). */
export const AuditCsvQuery = AuditQuery.omit({ cursor: true, limit: true });
export type AuditCsvQuery = z.infer<typeof AuditCsvQuery>;

/** GET /api/admin/audit: a page, newest first; `nextCursor` null on the last page. */
export const AuditPage = z
  .object({ entries: z.array(AuditEntry), nextCursor: z.string().nullable() })
  .meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof AuditPage>;

/** One dependency's readiness as the system screen shows it (the `/readyz` probe with its latency). */
export const SystemCheck = z.object({
  name: z.string().describe('probe name, e.g. `database`, `blobStore`, `bus`, `ai.speechToText`'),
  status: CheckStatus,
  message: z.string().optional(),
  latencyMs: z.number().optional(),
});
export type SystemCheck = z.infer<typeof SystemCheck>;

/** A configuration value: secrets only ever as `set` / `unset`, never their value. */
export const SystemConfigEntry = z.object({
  key: z.string().describe('environment variable'),
  value: z.string().describe('the value; for secrets `set` or `unset`'),
  secret: z.boolean(),
});
export type SystemConfigEntry = z.infer<typeof SystemConfigEntry>;

/** GET /api/admin/system: the system status screen (admins only). */
export const SystemStatus = z
  .object({
    version: z.string(),
    commit: z
      .string()
      .nullable()
      .describe('git commit: recorded by the build, else the checkout the server runs from; null when unknown'),
    uptimeSeconds: z.number().int(),
    checkedAt: z.string().describe('ISO-8601'),
    checks: z.array(SystemCheck),
    database: z.object({ kind: z.enum(['sqlite', 'postgres']), sizeBytes: z.number().int().nullable() }),
    storage: z.object({
      blobBytes: z.number().int().describe('bytes of every stored file, in the trash or not (older versions apart)'),
      files: z.number().int(),
      trashBytes: z.number().int().describe('of `blobBytes`, the bytes of files in the trash'),
      versionBytes: z.number().int().describe('bytes of the older versions files keep'),
      tusBytes: z
        .number()
        .int()
        .nullable()
        .describe('bytes of unfinished resumable uploads on this instance’s disk; null with the S3 store'),
      blobStore: z.enum(['fs', 's3']),
    }),
    streams: z.object({ openOnThisInstance: z.number().int() }),
    push: z.object({ subscriptions: z.number().int() }),
    jobs: z
      .object({ queued: z.number().int(), running: z.number().int(), failed: z.number().int() })
      .nullable()
      .describe('the background job queue; null when the server has none (or it could not be read)'),
    scheduledNotifications: z.object({ pending: z.number().int().describe('scheduled messages not sent yet') }),
    ai: z.array(SystemCheck).describe('the AI engines’ probes (`ai.*`)'),
    config: z.array(SystemConfigEntry),
  })
  .meta({ id: 'SystemStatus' });
export type SystemStatus = z.infer<typeof SystemStatus>;

/**
 * GET/PUT /api/admin/settings: instance settings (admins only). `membersMustAccept`: adding someone to a workspace
 * invites them, and they become a member only once they accept (docs/PRODUCT.md#workspace-members).
 */
export const InstanceSettings = z
  .object({
    membersMustAccept: z.boolean().describe('Members must accept workspace invitations (default false)'),
  })
  .meta({ id: 'InstanceSettings' });
export type InstanceSettings = z.infer<typeof InstanceSettings>;

export const InstanceSettingsPatch = InstanceSettings.partial()
  .strict()
  .refine((value) => Object.keys(value).length > 0, { message: 'Send at least one setting.' })
  .meta({ id: 'InstanceSettingsPatch' });
export type InstanceSettingsPatch = z.infer<typeof InstanceSettingsPatch>;

/** The label of the setting on the system screen (docs/PRODUCT.md#workspace-members). */
export const MEMBERS_MUST_ACCEPT_LABEL = 'Members must accept workspace invitations';

/** The system endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const systemEndpoints = {
  status: endpoint({ method: 'GET', path: '/api/admin/system', response: SystemStatus }),
} as const;

/** The admin endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const adminEndpoints = {
  /** The next page's cursor is in the `X-Next-Cursor` header. */
  users: endpoint({ method: 'GET', path: '/api/admin/users', query: AdminUsersQuery, response: AdminUserList }),
  updateUser: endpoint({
    method: 'PATCH',
    path: '/api/admin/users/:userId',
    params: AdminUserParams,
    body: AdminUserPatch,
    response: AdminUser,
  }),
  revokeSessions: endpoint({
    method: 'DELETE',
    path: '/api/admin/users/:userId/sessions',
    params: AdminUserParams,
    response: SessionsRevoked,
  }),
  transferFiles: endpoint({
    method: 'POST',
    path: '/api/admin/users/:userId/transfer',
    params: AdminUserParams,
    body: TransferFilesRequest,
    response: TransferFilesResponse,
  }),
  audit: endpoint({ method: 'GET', path: '/api/admin/audit', query: AuditQuery, response: AuditPage }),
  /** Every matching entry as CSV, streamed (an attachment). */
  auditCsv: endpoint({ method: 'GET', path: '/api/admin/audit.csv', query: AuditCsvQuery }),
  settings: endpoint({ method: 'GET', path: '/api/admin/settings', response: InstanceSettings }),
  updateSettings: endpoint({
    method: 'PUT',
    path: '/api/admin/settings',
    body: InstanceSettingsPatch,
    response: InstanceSettings,
  }),
} as const;

import type {
  AiApiKeysTable,
  AppPasswordsTable,
  DavLocksTable,
  DavChunkedUploadsTable,
  NcLoginFlowsTable,
  DavPropertiesTable,
  RateLimitsTable,
  EndedSessionsTable,
  SessionsTable,
  UserPreferencesTable,
  UsersTable,
  LocalCredentialsTable,
  InvitationsTable,
  PasswordResetsTable,
} from './schema/accounts';
import type {
  FileVersionsTable,
  FilesTable,
  FoldersTable,
  LinksTable,
  SharesTable,
  LinkArrivalsTable,
  StarsTable,
  WorkspaceInvitationsTable,
  WorkspaceMembersTable,
  WorkspacesTable,
} from './schema/spaces';
import type {
  NotificationMarksTable,
  NotificationReadsTable,
  NotificationSubscribersTable,
  NotificationsTable,
  PushSubscriptionsTable,
  ScheduledNotificationsTable,
} from './schema/notifications';
import type { AuditLogTable, ContactMessagesTable, SettingsTable } from './schema/admin';
import type { JobsTable, JobLeasesTable } from './schema/jobs';
import type { MailOutboxTable, MailPreferencesTable } from './schema/mail';
import type { AiModelsTable } from './schema/ai-models';
import type {
  AnalysisSettingsTable,
  FacesTable,
  FileInsightsTable,
  PeopleSettingsTable,
  PeopleTable,
} from './schema/analysis';
import type { LoginChallengesTable, PasskeysTable, RecoveryCodesTable, TotpFactorsTable } from './schema/factors';

/**
 * Table types for Kysely, one file per area in schema/. Timestamps are ISO-8601 UTC strings in both
 * dialects (they sort correctly as text); byte counts are bigint columns read
 * back as numbers.
 */
export type * from './schema/accounts';
export type * from './schema/spaces';
export type * from './schema/notifications';
export type * from './schema/admin';
export type * from './schema/jobs';
export type * from './schema/analysis';
export type * from './schema/factors';
export type * from './schema/ai-models';

export interface Database {
  users: UsersTable;
  local_credentials: LocalCredentialsTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
  sessions: SessionsTable;
  ended_sessions: EndedSessionsTable;
  app_passwords: AppPasswordsTable;
  files: FilesTable;
  file_versions: FileVersionsTable;
  ai_api_keys: AiApiKeysTable;
  dav_properties: DavPropertiesTable;
  dav_locks: DavLocksTable;
  dav_chunked_uploads: DavChunkedUploadsTable;
  nc_login_flows: NcLoginFlowsTable;
  notifications: NotificationsTable;
  notification_subscribers: NotificationSubscribersTable;
  notification_marks: NotificationMarksTable;
  notification_reads: NotificationReadsTable;
  scheduled_notifications: ScheduledNotificationsTable;
  push_subscriptions: PushSubscriptionsTable;
  contact_messages: ContactMessagesTable;
  rate_limits: RateLimitsTable;
  job_leases: JobLeasesTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  workspace_invitations: WorkspaceInvitationsTable;
  settings: SettingsTable;
  folders: FoldersTable;
  shares: SharesTable;
  links: LinksTable;
  audit_log: AuditLogTable;
  jobs: JobsTable;
  file_insights: FileInsightsTable;
  analysis_settings: AnalysisSettingsTable;
  user_preferences: UserPreferencesTable;
  people_settings: PeopleSettingsTable;
  people: PeopleTable;
  faces: FacesTable;
  stars: StarsTable;
  link_arrivals: LinkArrivalsTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  login_challenges: LoginChallengesTable;
  mail_preferences: MailPreferencesTable;
  mail_outbox: MailOutboxTable;
  ai_models: AiModelsTable;
}

import type { AiConfig } from './ai';
import type { LlmConfig } from './llm';
import type { AdminConfig, LoginRateLimitConfig, OidcConfig, SessionConfig } from './auth';
import type { BusConfig, NotificationsConfig } from './notifications';
import type { MailConfig } from './people';
import type { ScheduledBackupConfig } from './retention';
import type { DatabaseConfig, LogFormat, LogLevel, NodeEnv } from './server';
import type { BlobStoreConfig, UploadsConfig } from './storage';

/** The server's settings, read once from the environment by `loadConfig`. */
export interface Config {
  env: NodeEnv;
  isProduction: boolean;
  host: string;
  port: number;
  /** The site's own origin, e.g. http://localhost:3000 (CSRF checks, OIDC callbacks). */
  publicUrl: string;
  /** PUBLIC_URL was set: only its origin is accepted. Unset: each request's own origin (lib/site-origin.ts). */
  publicUrlConfigured: boolean;
  dataDir: string;
  database: DatabaseConfig;
  logLevel: LogLevel;
  /** `auto`: readable lines on a terminal, JSON otherwise (`LOG_FORMAT`). */
  logFormat: LogFormat;
  /** Addresses/CIDRs of the proxies whose X-Forwarded-* headers are believed; empty: none. */
  trustProxy: string[];
  /** Folder of the built SPA; undefined when there is none (API-only). */
  webDist: string | undefined;
  session: SessionConfig;
  admin: AdminConfig;
  /** Failed admin logins allowed per window, per client IP and per username. */
  loginRateLimit: LoginRateLimitConfig;
  /**
   * OpenID Connect sign-in. `external`: a real issuer (Auth0…); `embedded`: the
   * development provider mounted at /oidc on this server; undefined: OIDC off.
   */
  oidc: OidcConfig;
  /** The audit log's retention (`AUDIT_RETENTION_DAYS`). */
  audit: { retentionDays: number };
  /** The trash (`TRASH_RETENTION_DAYS`) and file versions (`FILE_VERSIONS_KEPT`). */
  trash: { retentionDays: number };
  versions: { kept: number };
  providerName: string;
  uploads: UploadsConfig;
  blobStore: BlobStoreConfig;
  shutdownTimeoutMs: number;
  /** A request body that sends nothing for this long is closed (0: never). */
  bodyIdleTimeoutMs: number;
  ai: AiConfig;
  /** Chat and embeddings for Ask: OpenAI-compatible providers, uploaded GGUF models. */
  llm: LlmConfig;
  /** Event bus between instances: Redis when a URL is set, otherwise in-process. */
  bus: BusConfig;
  notifications: NotificationsConfig;
  /** Contact form messages accepted per sender address per hour. */
  contact: { maxPerHour: number };
  /**
   * Background analysis of stored files (docs/PRODUCT.md#file-insights); `sttAdaptation`: `STT_ADAPTATION=on`,
   * transcripts adapted to the space's text (docs/PRODUCT.md#transcripts).
   */
  analysis: { enabled: boolean; timeoutMs: number; sttAdaptation: boolean };
  /** Thumbnails of new uploads made in the background (docs/PRODUCT.md#grid-view). */
  thumbnails: { inBackground: boolean };
  /** Bearer token required by /metrics; undefined: /metrics is off (404). */
  metricsToken: string | undefined;
  /** Email (`SMTP_URL`); undefined: off, invitation links are shown to copy. */
  mail: MailConfig;
  /** Scheduled backups into `BACKUP_DIR` (undefined: none). */
  backups: ScheduledBackupConfig;
  /** How long an invitation link stays valid (`INVITE_TTL_DAYS`). */
  invitations: { ttlDays: number };
}

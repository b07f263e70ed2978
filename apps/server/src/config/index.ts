import path from 'node:path';
import { resolveAiConfig } from './ai';
import { checkOidc, resolveOidc } from './auth';
import { resolveLlmConfig } from './llm';
import { checkVapid, resolveBus, resolveNotifications } from './notifications';
import { resolveMail } from './people';
import { resolveScheduledBackups } from './retention';
import { EnvSchema } from './schema';
import { ensureLocalSecret } from './secrets';
import { defaultWebDist, resolveDatabase } from './server';
import { checkProductionSecrets, checkVapidFormat } from './unsafe-values';
import { checkStorage, resolveBlobStore, resolveUploads } from './storage';
import type { Config } from './types';

// The server's configuration, one file per concern: server.ts (the process), auth.ts (sessions, sign-in),
// storage.ts (uploads, blob store), ai.ts (providers, analysis), notifications.ts (bus, push), retention.ts.
// schema.ts assembles their variables into EnvSchema; this file checks and resolves them into a Config.

export type { AiConfig } from './ai';
export { EnvSchema } from './schema';
export { ensureLocalSecret } from './secrets';
export type { Config } from './types';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Validates the environment once and lists every problem, so a bad
 * deployment fails at start-up with one readable message.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`));
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';
  const problems: string[] = [];
  if (isProduction && !env.SESSION_SECRET)
    problems.push('SESSION_SECRET: required in production (at least 32 characters)');
  // With PostgreSQL several instances may serve one site, each with its own DATA_DIR: what would
  // otherwise be generated per data folder must be the same everywhere, so it must be given.
  if (isProduction && env.DATABASE_URL?.startsWith('postgres')) {
    const unshared = (['ADMIN_PASSWORD', 'VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'] as const).filter(
      (name) => !env[name],
    );
    if (unshared.length > 0)
      problems.push(
        `${unshared.join(', ')}: required in production with PostgreSQL (every instance must share them; see .env.example)`,
      );
  }
  checkOidc(env, problems);
  checkStorage(env, problems);
  const ai = resolveAiConfig(env, problems);
  const llm = resolveLlmConfig(env, problems);
  checkVapid(env, problems);
  checkVapidFormat(env, problems);
  if (isProduction) checkProductionSecrets(env, problems);
  if (problems.length > 0) throw new ConfigError(problems);

  const dataDir = path.resolve(env.DATA_DIR);
  const host = env.HOST ?? (isProduction ? '0.0.0.0' : 'localhost');
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const sessionSecret = env.SESSION_SECRET ?? ensureLocalSecret(dataDir, 'session-secret');

  return {
    env: env.NODE_ENV,
    isProduction,
    host,
    port: env.PORT,
    publicUrl,
    publicUrlConfigured: env.PUBLIC_URL !== undefined,
    dataDir,
    database: resolveDatabase(env, dataDir),
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    trustProxy: env.TRUST_PROXY,
    webDist: env.WEB_DIST ? path.resolve(env.WEB_DIST) : defaultWebDist(),
    session: {
      secret: sessionSecret,
      idleMs: env.SESSION_IDLE_MINUTES * 60_000,
      absoluteMs: env.SESSION_ABSOLUTE_HOURS * 3_600_000,
      cookieSecure: publicUrl.startsWith('https://'),
    },
    admin: { username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD },
    loginRateLimit: {
      maxPerIp: env.LOGIN_MAX_FAILURES_PER_IP,
      maxPerUsername: env.LOGIN_MAX_FAILURES_PER_USERNAME,
      windowMs: env.LOGIN_FAILURE_WINDOW_MINUTES * 60_000,
    },
    oidc: resolveOidc(env, { isProduction, publicUrl, sessionSecret }),
    providerName: env.OIDC_PROVIDER_NAME,
    uploads: resolveUploads(env),
    blobStore: resolveBlobStore(env),
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    bodyIdleTimeoutMs: env.BODY_IDLE_TIMEOUT_MS,
    ai,
    llm,
    bus: resolveBus(env),
    notifications: resolveNotifications(env, publicUrl),
    contact: { maxPerHour: env.CONTACT_MAX_PER_HOUR },
    analysis: {
      enabled: env.ANALYSIS_ENABLED,
      timeoutMs: Math.round(env.ANALYSIS_TIMEOUT_MINUTES * 60_000),
      sttAdaptation: env.STT_ADAPTATION === 'on',
    },
    thumbnails: { inBackground: env.THUMBNAILS_IN_BACKGROUND },
    audit: { retentionDays: env.AUDIT_RETENTION_DAYS },
    trash: { retentionDays: env.TRASH_RETENTION_DAYS },
    versions: { kept: env.FILE_VERSIONS_KEPT },
    metricsToken: env.METRICS_TOKEN,
    mail: resolveMail(env, publicUrl),
    backups: resolveScheduledBackups(env),
    invitations: { ttlDays: env.INVITE_TTL_DAYS },
  };
}

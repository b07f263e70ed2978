import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, type SystemCheck, type SystemConfigEntry } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import type { Config } from '../../config';
import type { DatabaseHandle } from '../../db';
import { readBuildInfo } from '../../lib/build-info';
import { runProbes, type ReadinessProbe } from '../health';
import { createSystemRepository } from './system.repository';
import { route } from '../../plugins/route';

const E = ENDPOINTS.system;

const here = path.dirname(fileURLToPath(import.meta.url));

const flag = (value: unknown): string => (value ? 'set' : 'unset');

/**
 * The configuration summary: settings as plain values, every secret only as `set` / `unset`. The list is
 * written out (not derived from the environment) so that a new secret can never appear by accident.
 */
export function configSummary(config: Config): SystemConfigEntry[] {
  const plain = (key: string, value: string | number | boolean): SystemConfigEntry => ({
    key,
    value: String(value),
    secret: false,
  });
  const secret = (key: string, value: unknown): SystemConfigEntry => ({ key, value: flag(value), secret: true });
  const { ai } = config;
  return [
    plain('NODE_ENV', config.env),
    plain('PUBLIC_URL', config.publicUrlConfigured ? config.publicUrl : '(each request’s own origin)'),
    plain('DATABASE', config.database.kind),
    plain('BLOB_STORE', config.blobStore.kind),
    plain('BUS', config.bus.redisUrl ? 'redis' : 'in-process'),
    plain('TRUST_PROXY', config.trustProxy.join(', ') || '(none)'),
    plain('OIDC', config.oidc ? config.oidc.mode : 'off'),
    plain('MAX_UPLOAD_BYTES', config.uploads.maxBytes),
    plain('USER_QUOTA_BYTES', config.uploads.userQuotaBytes),
    plain('WORKSPACE_QUOTA_BYTES', config.uploads.workspaceQuotaBytes),
    plain('AUDIT_RETENTION_DAYS', config.audit.retentionDays),
    plain('TRASH_RETENTION_DAYS', config.trash.retentionDays),
    plain('FILE_VERSIONS_KEPT', config.versions.kept),
    plain(
      'AI_PROVIDERS',
      Object.entries(ai.providers)
        .map(([service, provider]) => `${service}: ${provider}`)
        .join(', '),
    ),
    plain('METRICS', config.metricsToken ? 'on' : 'off'),
    secret('SESSION_SECRET', config.session.secret),
    secret('ADMIN_PASSWORD', config.admin.password),
    secret('OIDC_CLIENT_SECRET', config.oidc?.mode === 'external' ? config.oidc.clientSecret : undefined),
    secret('S3_SECRET_ACCESS_KEY', config.blobStore.kind === 's3' ? config.blobStore.secretAccessKey : undefined),
    // Without the variable the key pair is generated once into DATA_DIR/secrets (loadVapidKeys): always set.
    secret('VAPID_PRIVATE_KEY', config.notifications.vapid?.privateKey ?? 'generated'),
    secret('AZURE_SPEECH_KEY', ai.azure.speech?.key),
    secret('AZURE_FACE_KEY', ai.azure.face?.key),
    secret('AZURE_VISION_KEY', ai.azure.vision?.key),
    secret('OPENAI_API_KEY', ai.openai?.apiKey),
    secret('METRICS_TOKEN', config.metricsToken),
  ];
}

async function databaseSize(database: DatabaseHandle, config: Config['database']): Promise<number | null> {
  if (config.kind === 'postgres') return createSystemRepository(database.db).postgresSize();
  const sizes = await Promise.all(
    [config.file, `${config.file}-wal`].map((file) =>
      stat(file).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  const total = sizes.reduce((a, b) => a + b, 0);
  return total > 0 ? total : null;
}

export interface SystemDeps {
  config: Config;
  database: DatabaseHandle;
  probes: Map<string, ReadinessProbe>;
  /** Live SSE streams on this instance. */
  openStreams: () => number;
  pushSubscriptions: () => Promise<number>;
  /** Scheduled notifications not sent yet. */
  scheduledPending: () => Promise<number>;
  /** The background job queue's figures, when the server has one (absent: the screen says there is none). */
  queueStats?: () => Promise<{ queued: number; running: number; failed: number }>;
  /** Bytes held by unfinished resumable uploads on this instance's disk; null where the store cannot tell. */
  tusBytes: () => Promise<number | null>;
  startedAt?: number;
}

/** GET /api/admin/system: the system status screen (admins only). */
export function registerSystemRoutes(app: FastifyInstance, deps: SystemDeps) {
  const build = readBuildInfo(here);
  const startedAt = deps.startedAt ?? Date.now();

  route(app, E.status, {
    config: adminOnly('system'),
    tags: ['admin'],
    summary: 'Version, uptime, dependency checks, database and storage size, streams and configuration',
    description: 'Secrets in the configuration summary are only ever `set` or `unset`.',
    handler: async (request) => {
      const system = createSystemRepository(deps.database.db);
      const [entries, sizeBytes, blobs, versions, tusBytes, pushSubscriptions, scheduledPending, jobs] =
        await Promise.all([
          runProbes(deps.probes, request.log),
          databaseSize(deps.database, deps.config.database).catch((error: unknown) => {
            request.log.warn({ err: error }, 'could not read the database size');
            return null;
          }),
          system.fileTotals(),
          system.versionTotals(),
          deps.tusBytes().catch(() => null),
          deps.pushSubscriptions(),
          deps.scheduledPending(),
          deps.queueStats
            ? deps.queueStats().then(
                ({ queued, running, failed }) => ({ queued, running, failed }),
                (error: unknown) => {
                  request.log.warn({ err: error }, 'could not read the job queue figures');
                  return null;
                },
              )
            : null,
        ]);
      const checks: SystemCheck[] = entries.map(([name, check]) => ({ name, ...check }));
      return {
        version: build.version,
        commit: build.commit,
        uptimeSeconds: Math.floor((Date.now() - startedAt) / 1000),
        checkedAt: new Date().toISOString(),
        checks,
        database: { kind: deps.config.database.kind, sizeBytes },
        storage: {
          blobBytes: Number(blobs?.bytes ?? 0),
          files: Number(blobs?.files ?? 0),
          trashBytes: Number(blobs?.trash ?? 0),
          versionBytes: Number(versions?.bytes ?? 0),
          tusBytes,
          blobStore: deps.config.blobStore.kind,
        },
        streams: { openOnThisInstance: deps.openStreams() },
        push: { subscriptions: pushSubscriptions },
        jobs,
        scheduledNotifications: { pending: scheduledPending },
        ai: checks.filter((check) => check.name.startsWith('ai.')),
        config: configSummary(deps.config),
      };
    },
  });
}

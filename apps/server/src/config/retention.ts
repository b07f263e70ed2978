import path from 'node:path';
import { z } from 'zod';
import { documented } from './env';

// How long the daily jobs keep the audit log, the trash and older file versions; scheduled backups.

export const retentionEnv = {
  AUDIT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .positive()
    .max(36500)
    .default(365)
    .describe('days audit-log entries are kept; older ones are deleted by a daily job'),
  TRASH_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .positive()
    .max(36500)
    .default(30)
    .describe('days deleted files and folders stay in the trash; older ones are purged by a daily job'),
  FILE_VERSIONS_KEPT: z.coerce
    .number()
    .int()
    .min(0)
    .max(1000)
    .default(10)
    .describe('older versions kept per file when its content is replaced (the oldest beyond this are deleted)'),
  BACKUP_DIR: documented(
    z.string().min(1).optional(),
    'folder for scheduled backups (one folder per backup, as `npm run backup` writes them); for a single-machine install',
    'unset (no scheduled backups)',
  ),
  BACKUP_INTERVAL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(24)
    .describe('hours between scheduled backups (with `BACKUP_DIR`)'),
  BACKUP_KEEP: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(7)
    .describe('scheduled backups kept in `BACKUP_DIR`; older ones are deleted after each new one'),
};

type RetentionEnv = z.infer<z.ZodObject<typeof retentionEnv>>;

/** Scheduled backups: undefined unless `BACKUP_DIR` is set. */
export type ScheduledBackupConfig = { dir: string; intervalMs: number; keep: number } | undefined;

export const resolveScheduledBackups = (env: RetentionEnv): ScheduledBackupConfig =>
  env.BACKUP_DIR
    ? {
        dir: path.resolve(env.BACKUP_DIR),
        intervalMs: Math.round(env.BACKUP_INTERVAL_HOURS * 3_600_000),
        keep: env.BACKUP_KEEP,
      }
    : undefined;

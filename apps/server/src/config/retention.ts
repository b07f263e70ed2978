import { z } from 'zod';

// How long the daily jobs keep the audit log, the trash and older file versions.

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
};

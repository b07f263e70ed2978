import type { EventEmitter } from '../events';
import type { JobDefinition } from './scheduler';

export { createDbLeases } from './leases';
export { createScheduler, type JobDefinition, type Scheduler } from './scheduler';

const HOUR_MS = 60 * 60 * 1000;

/** What the jobs call; each is a capability of a module, passed in by `app.ts`. */
export interface JobDeps {
  sessions: { sweep(): Promise<unknown> };
  loginLimiter: { sweep(): Promise<unknown> };
  rateLimits: { sweep(): Promise<unknown> };
  tus: { sweepExpired(): Promise<unknown> };
  files: { sweepOrphans(graceMs: number): Promise<{ incomplete: number; orphans: number }> };
  uploadSweepIntervalMs: number;
  orphanGraceMs: number;
  audit: { sweep(): Promise<number> };
  scheduledNotifications: { sendDue(): Promise<number> };
  scheduledSendIntervalMs: number;
  /** Where the trash purge announces what it removed (`file.purged`: the audit log records it). */
  events: EventEmitter;
  trash: { purgeExpired(): Promise<number> };
  /** `version`: the analysers' (ANALYSIS_VERSION); `enabled`: whether this instance analyses at all. */
  analysis: { backfill(signal?: AbortSignal): Promise<number>; version: string; enabled: boolean };
  /** "Ask your files": passages (and vectors) for files analysed before them. */
  ask: { backfill(signal?: AbortSignal): Promise<number> };
  /** Scheduled backups (`BACKUP_DIR`); undefined: none. */
  backups?: { intervalMs: number; run(): Promise<{ folder: string; removed: string[] }> } | undefined;
  log: { info(details: object, message: string): void };
  /** Nextcloud clients: expired Login Flow v2 requests and chunked uploads idle for 24 hours. */
  nextcloud?: { sweep(): Promise<{ loginFlows: number; chunkedUploads: number }> } | undefined;
  /** Email (modules/mail): the outbox's due messages and the daily digest. */
  mail: { deliverDue(): Promise<number>; sendDigests(): Promise<number>; outboxIntervalMs: number };
}

/**
 * Every scheduled job of the server, in one place. A new one (trash purge, audit retention, analysis backfill) is one more
 * entry: a name, an interval, whether it runs on one instance only, and the call it makes.
 */
export const defineJobs = (deps: JobDeps): JobDefinition[] => [
  ...(deps.backups ? [scheduledBackups(deps.backups, deps.log)] : []),
  ...mailJobs(deps.mail, deps.log),
  // Files stored before the current analysers (an upgrade added one) or while analysis was off: queued for analysis
  // at start and every 6 hours, on one instance that analyses; the queue's own rules keep a file from running twice.
  // The lease is named after the analysers' version, so the first start after an upgrade runs it at once.
  ...(deps.analysis.enabled
    ? [
        {
          name: `analysis.backfill.${deps.analysis.version}`,
          intervalMs: 6 * HOUR_MS,
          once: true,
          run: async (signal: AbortSignal) => {
            const queued = await deps.analysis.backfill(signal);
            if (queued > 0)
              deps.log.info({ queued }, 'queued the analysis of files stored before the current analysers');
          },
        },
      ]
    : []),
  {
    // Files analysed before passages existed (docs/PRODUCT.md#ask-your-files): cut into passages at start and every
    // 6 hours, on one instance; files that have passages are left alone.
    name: 'ask.passages.backfill',
    intervalMs: 6 * HOUR_MS,
    once: true,
    run: async (signal: AbortSignal) => {
      const filled = await deps.ask.backfill(signal);
      if (filled > 0) deps.log.info({ filled }, 'cut the files analysed before Ask into passages');
    },
  },
  {
    // Expired and idle sessions: shared rows, so one instance is enough.
    name: 'sessions.sweep',
    intervalMs: HOUR_MS,
    once: true,
    run: () => deps.sessions.sweep(),
  },
  {
    // Counters of finished rate-limit windows (sign-in failures and every route's declared limit).
    name: 'rate-limits.sweep',
    intervalMs: HOUR_MS,
    once: true,
    run: async () => {
      await deps.loginLimiter.sweep();
      await deps.rateLimits.sweep();
    },
  },
  {
    // Leftovers of uploads interrupted by a crash or restart: unfinished writes, blobs without a row, expired tus
    // uploads. On every instance: with the fs store, unfinished writes and tus uploads may be on its own disk.
    name: 'uploads.leftovers',
    intervalMs: deps.uploadSweepIntervalMs,
    run: async () => {
      await deps.tus.sweepExpired();
      const swept = await deps.files.sweepOrphans(deps.orphanGraceMs);
      if (swept.incomplete + swept.orphans > 0) deps.log.info(swept, 'removed leftovers of interrupted uploads');
    },
  },
  ...(deps.nextcloud ? [nextcloudSweep(deps.nextcloud, deps.log)] : []),
  {
    // Audit entries older than AUDIT_RETENTION_DAYS: shared rows, one instance, daily.
    name: 'audit.retention',
    intervalMs: 24 * HOUR_MS,
    once: true,
    run: async () => {
      const deleted = await deps.audit.sweep();
      if (deleted > 0) deps.log.info({ deleted }, 'removed audit entries past their retention');
    },
  },
  {
    // Scheduled notifications that are due. `once` keeps the other instances idle; the claim (a conditional
    // update per message) is what makes each message go out exactly once even if two runs overlap.
    name: 'notifications.scheduled',
    intervalMs: deps.scheduledSendIntervalMs,
    once: true,
    run: async () => {
      const sent = await deps.scheduledNotifications.sendDue();
      if (sent > 0) deps.log.info({ sent }, 'sent scheduled notifications');
    },
  },
  {
    // Trashed files and folders older than TRASH_RETENTION_DAYS: shared rows and blobs, one instance, daily.
    name: 'trash.purge',
    intervalMs: 24 * HOUR_MS,
    once: true,
    run: async () => {
      const purged = await deps.trash.purgeExpired();
      if (purged > 0) {
        deps.log.info({ purged }, 'purged trashed items past their retention');
        await deps.events.emit('file.purged', {
          actor: null,
          target: null,
          details: { expired: purged },
        });
      }
    },
  },
];

/** Expired Login Flow v2 requests and abandoned chunked uploads (rows and their chunks): hourly, one instance. */
const nextcloudSweep = (nextcloud: NonNullable<JobDeps['nextcloud']>, log: JobDeps['log']): JobDefinition => ({
  name: 'nextcloud.sweep',
  intervalMs: HOUR_MS,
  once: true,
  run: async () => {
    const swept = await nextcloud.sweep();
    if (swept.loginFlows + swept.chunkedUploads > 0) log.info(swept, 'removed expired sign-in requests and uploads');
  },
});

/** A backup into BACKUP_DIR every BACKUP_INTERVAL_HOURS, on one instance; not at start (a restart is no reason). */
const scheduledBackups = (backups: NonNullable<JobDeps['backups']>, log: JobDeps['log']): JobDefinition => ({
  name: 'backups.scheduled',
  intervalMs: backups.intervalMs,
  once: true,
  runOnStart: false,
  run: async () => {
    const { folder, removed } = await backups.run();
    log.info({ folder, removed }, 'scheduled backup written');
  },
});

/**
 * Email: the outbox every 30 s (messages a retry or a restart left; a new one is also sent at once by a kick), and the
 * daily digest, looked for hourly (each person gets one a day at most, only with something unread). One instance:
 * shared rows, each claimed with a conditional update.
 */
const mailJobs = (mail: JobDeps['mail'], log: JobDeps['log']): JobDefinition[] => [
  {
    name: 'mail.outbox',
    intervalMs: mail.outboxIntervalMs,
    once: true,
    run: () => mail.deliverDue(),
  },
  {
    name: 'mail.digest',
    intervalMs: HOUR_MS,
    once: true,
    run: async () => {
      const queued = await mail.sendDigests();
      if (queued > 0) log.info({ queued }, 'queued daily email digests');
    },
  },
];

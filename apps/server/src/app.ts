import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createEventBus } from './adapters/event-bus';
import type { Config } from './config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './db';
import { systemClock, type Clock } from './lib/time';
import { loadLocalEngines } from './adapters/ai/local-engines';
import { createAiModule } from './modules/ai';
import { createPreferencesModule } from './modules/preferences';
import { createAnalysisModule, type AnalysisService } from './modules/analysis';
import { createArchiveModule } from './modules/archive';
import { createAuthModule } from './modules/auth';
import { createSessionService } from './modules/auth/sessions.service';
import { createUsersRepository } from './modules/auth/users.repository';
import { createBlobStore } from './adapters/blob-store';
import { createFileDetailsModule } from './modules/file-details';
import { createFilesModule, createThumbnailsModule } from './modules/files';
import { createContactModule } from './modules/contact';
import { createMailModule } from './modules/mail';
import { createLinksModule } from './modules/links';
import { createSharingModule } from './modules/sharing';
import { createPeopleModule } from './modules/people';
import { SHARED_SPACE_NAME, createSearchModule, type SearchService } from './modules/search';
import { createTrashModule } from './modules/trash';
import { createSpacesModule } from './modules/spaces';
import { createHealthModule, type ReadinessProbe } from './modules/health';
import { createDbLeases, createScheduler, defineJobs, type Scheduler } from './jobs';
import { createRateLimiter } from './lib/rate-limiter';
import { collectRoutes, enforceAccess, undeclaredApiRoutes } from './plugins/access';
import { enforceRateLimits } from './plugins/rate-limit';
import { registerBodyIdleTimeout } from './plugins/body-timeout';
import { refuseEmptyPathParams } from './plugins/empty-params';
import { registerCsrfProtection } from './plugins/csrf';
import { createSiteOrigin } from './lib/site-origin';
import { createNotificationsModule, SCHEDULED_SEND_INTERVAL_MS, type NotificationHub } from './modules/notifications';
import { registerErrorHandling, sendError, toAppError } from './plugins/errors';
import { registerAppMetrics } from './plugins/app-metrics';
import { createScheduledBackups } from './ops/scheduled-backups';
import { registerMetrics } from './plugins/metrics';
import { Registry } from 'prom-client';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security';
import { registerSessions } from './plugins/session';
import { registerSpa } from './plugins/spa';
import { createActivityModule } from './modules/activity';
import { createAuditModule } from './modules/audit';
import { createAdminModule, createAdminStores } from './modules/admin';
import { createDomainEvents, type DomainEventHub } from './events';
import { createJobQueue, type JobQueueOptions } from './jobs/queue';
import { readableLogStream } from './lib/readable-log';

export interface AppOverrides {
  clock?: Clock;
  /** Pino options or false; tests pass false to keep output quiet. */
  logger?: boolean | Record<string, unknown>;
  /** How often leftovers of interrupted uploads are swept (tests; default: half the grace period, 1 min–1 h). */
  uploadSweepIntervalMs?: number;
  /** The background job queue's figures for the system screen (tests; default: the job queue's `stats()`). */
  queueStats?: () => Promise<{ queued: number; running: number; failed: number }>;
  /** The job queue's tuning, over every kind's own (tests). */
  jobQueue?: Pick<JobQueueOptions, 'pollMs' | 'leaseMs' | 'backoffMs' | 'maxAttempts'>;
  /** How long file-drop arrivals are gathered into one notice (tests; default DROP_NOTICE_WINDOW_MS). */
  dropNoticeWindowMs?: number;
  /** The email outbox's retry tuning (tests). */
  mailOutbox?: { backoffMs?: number; maxAttempts?: number };
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    notificationHub: NotificationHub;
    /** The scheduled jobs (jobs/): tests run one at once with `scheduler.runNow(name)`. */
    scheduler: Scheduler;
    /** Background analysis of stored files (modules/analysis): its queue, for tests. */
    analysis: AnalysisService;
    /** Search: `searchIndex.setContent(fileId, text)` sets a file's searchable content (tests). */
    searchIndex: SearchService;
    /** The domain events hub: tests subscribe to observe what modules announce. */
    events: DomainEventHub;
  }
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Builds the whole server without listening: main.ts listens on it, tests
 * call inject() or listen on a random port.
 */
export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const clock = overrides.clock ?? systemClock;
  const app = Fastify({
    logger: overrides.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      ...(config.logFormat === 'readable' || (config.logFormat === 'auto' && process.stdout.isTTY)
        ? { stream: readableLogStream(process.stdout) }
        : {}),
    },
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    // A trailing slash is part of the path: `DELETE /api/trash/` must not fold into `DELETE /api/trash` (emptying the
    // whole trash); it reaches `/api/trash/:id` with an empty id, which `refuseEmptyPathParams` answers 404.
    routerOptions: { ignoreTrailingSlash: false },
    // The router's own refusals (a malformed percent-encoding, a path parameter over 100 characters)
    // answer in the JSON error shape too, instead of Fastify's default body.
    frameworkErrors: (error, request, reply) => {
      void reply.header('x-request-id', request.id);
      void sendError(request, reply, toAppError(error));
    },
  });
  app.decorate('config', config);
  collectRoutes(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  // Callback-style hooks where nothing is awaited: an async hook costs a promise and a microtask per request.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  refuseEmptyPathParams(app);
  registerBodyIdleTimeout(app, config.bodyIdleTimeoutMs);
  // Graceful shutdown: answers finished after close() began also close their
  // keep-alive connection, so close() does not wait on idle sockets.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    // A streamed answer (a file download) may finish just after close() began:
    // its keep-alive connection turns idle later and must be closed then too.
    const idleSweep = setInterval(() => app.server.closeIdleConnections(), 100);
    idleSweep.unref();
    app.server.once('close', () => clearInterval(idleSweep));
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });

  const site = createSiteOrigin(config.publicUrl, config.publicUrlConfigured);
  registerCsrfProtection(app, site);
  registerSecurityHeaders(app, { https: config.publicUrl.startsWith('https://') });
  const metricsRegistry = new Registry();
  registerMetrics(app, { token: config.metricsToken, registry: metricsRegistry });
  await registerOpenApi(app);

  const database = openDatabase(config.database);
  app.decorate('database', database);
  app.addHook('onClose', async () => database.close());
  const applied = await migrateToLatest(database.db);
  if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated');
  // The one durable job queue (jobs/queue.ts): modules register their kinds on it. Started when the server is
  // ready, stopped before the database closes (runs in progress are handed back).
  const jobQueue = createJobQueue({
    db: database.db,
    dialect: database.dialect,
    clock,
    log: app.log,
    onRunEnded: (kind, seconds, outcome) => jobRuns.observe?.(kind, seconds, outcome),
    ...overrides.jobQueue,
  });
  // The metrics that observe each job run are registered further down, once their sources exist.
  const jobRuns: { observe?: NonNullable<JobQueueOptions['onRunEnded']> } = {};
  app.addHook('onReady', async () => jobQueue.start());
  app.addHook('preClose', async () => jobQueue.stop());

  const probes = new Map<string, ReadinessProbe>([
    ['database', async () => (await database.ping(), { status: 'ok' as const })],
  ]);

  const users = createUsersRepository(database.db, clock);
  const sessionService = createSessionService({
    db: database.db,
    clock,
    idleMs: config.session.idleMs,
    absoluteMs: config.session.absoluteMs,
  });
  const sessions = await registerSessions(app, sessionService, {
    secure: config.session.cookieSecure,
    maxAgeMs: config.session.absoluteMs,
  });
  enforceAccess(app);
  // Modules meet through domain events (events/): the faces below subscribe in the order their reactions run.
  const events = createDomainEvents({ log: app.log });
  app.decorate('events', events);
  // First: an audited change is recorded before any other reaction to it runs.
  const { audit } = createAuditModule(app, {
    db: database.db,
    clock,
    retentionDays: config.audit.retentionDays,
    log: app.log,
    events,
  });
  const adminStores = createAdminStores({ db: database.db, clock });
  const rateLimiter = createRateLimiter({ db: database.db, clock });
  const rateLimits = enforceRateLimits(app, rateLimiter);
  const { loginLimiter } = await createAuthModule(app, {
    db: database.db,
    clock,
    config,
    users,
    sessions,
    site,
    events,
  });

  const blobs = createBlobStore(config);
  app.addHook('onClose', async () => blobs.close());
  probes.set('blobStore', async () => (await blobs.ping(), { status: 'ok' as const, message: blobs.kind }));
  probes.set('resumableUploads', async () => (await blobs.checkResumable(), { status: 'ok' as const }));
  // Event bus between instances: in-process, or Redis pub/sub with REDIS_URL.
  const bus = await createEventBus({
    redisUrl: config.bus.redisUrl,
    channelPrefix: config.bus.channelPrefix,
    onError: (error) => app.log.warn({ err: error }, 'event bus error'),
  });
  app.addHook('onClose', async () => bus.close());
  probes.set('bus', async () => (await bus.ping(), { status: 'ok' as const }));

  const { workspaces, folders, access, spacesRepo } = await createSpacesModule(app, {
    db: database.db,
    blobs,
    clock,
    workspaceQuotaBytes: config.uploads.workspaceQuotaBytes,
    log: app.log,
    consent: { mustAccept: () => adminStores.settings.membersMustAccept() },
    events,
  });
  const { files, filesRepo, tus, fileSource, reader } = await createFilesModule(app, {
    db: database.db,
    blobs,
    bus,
    config,
    clock,
    access,
    folders,
    quotas: adminStores.quotas,
    log: app.log,
    events,
  });
  const notices = await createNotificationsModule(app, {
    db: database.db,
    dialect: database.dialect,
    clock,
    bus,
    config,
    sessions: sessionService,
    limiter: rateLimiter,
    events,
    ...(overrides.dropNoticeWindowMs === undefined ? {} : { dropNoticeWindowMs: overrides.dropNoticeWindowMs }),
  });
  app.decorate('notificationHub', notices.hub);
  createHealthModule(app, probes);
  const { ai } = await createAiModule(app, {
    config: config.ai,
    db: database.db,
    clock,
    probes,
    files: fileSource,
    loadLocalEngines: () => loadLocalEngines(config.ai),
    events,
  });
  const { people } = createPeopleModule(app, { db: database.db, clock, workspaces, events });
  const { analysis, analysedText } = createAnalysisModule(app, {
    workspaces,
    people,
    db: database.db,
    queue: jobQueue,
    clock,
    ai,
    files: reader,
    log: app.log,
    config: config.analysis,
    events,
  });
  app.decorate('analysis', analysis);
  // Thumbnails of new uploads, made in the background (THUMBNAILS_IN_BACKGROUND); otherwise on first request.
  createThumbnailsModule({
    files,
    log: app.log,
    events,
    inBackground: config.thumbnails.inBackground,
    queue: jobQueue,
  });
  const { search } = createSearchModule(app, {
    db: database.db,
    dialect: database.dialect,
    access,
    events,
    analysedText,
    namesIn: people.namesIn,
  });
  app.decorate('searchIndex', search);
  createPreferencesModule(app, { db: database.db, clock });
  const admin = createAdminModule(app, {
    stores: adminStores,
    sessions: sessionService,
    events,
    clock,
    defaultQuotaBytes: config.uploads.userQuotaBytes,
    spaces: workspaces,
    system: {
      config,
      database,
      probes,
      openStreams: () => notices.hub.size,
      pushSubscriptions: notices.pushSubscriptions,
      scheduledPending: () => notices.scheduled.countPending(),
      queueStats: overrides.queueStats ?? (() => jobQueue.stats()),
      tusBytes: () => tus.pendingBytes(),
    },
  });
  jobRuns.observe = registerAppMetrics(app, metricsRegistry, {
    events,
    jobs: jobQueue,
    storage: () => admin.storageTotals(),
    liveStreams: () => notices.hub.size,
    now: () => clock.now(),
  }).onJobRunEnded;
  const { trash } = createTrashModule(app, {
    db: database.db,
    filesRepo,
    spacesRepo,
    files,
    folders,
    access,
    clock,
    retentionDays: config.trash.retentionDays,
    events,
  });
  const { linksRepo, linkMakerMayShare } = await createLinksModule(app, {
    db: database.db,
    files,
    folders,
    sessionSecret: config.session.secret,
    limiter: rateLimiter,
    clock,
    users,
    events,
    maxUploadBytes: config.uploads.maxBytes,
    secureCookies: config.session.cookieSecure,
  });
  createArchiveModule(app, { files, folders, tree: linksRepo });
  createFileDetailsModule(app, { db: database.db, files, links: linksRepo, linkMakerMayShare, access, clock });
  createSharingModule(app, {
    db: database.db,
    files,
    folders,
    spaces: spacesRepo,
    clock,
    events,
  });
  createActivityModule(app, { db: database.db, access, files, clock, sharedSpaceName: SHARED_SPACE_NAME });
  createContactModule(app, { db: database.db, clock, maxPerHour: config.contact.maxPerHour });
  const mailDeps = { db: database.db, clock, config, events, unreadAfter: notices.unreadAfter };
  const { mail } = await createMailModule(app, { ...mailDeps, outbox: overrides.mailOutbox });
  app.decorate('mail', mail);
  await registerSpa(app, config.webDist);

  // Scheduled work: one home (jobs/), started when the server is ready and stopped (runs awaited) on close.
  const scheduler = createScheduler({ leases: createDbLeases({ db: database.db, clock }), log: app.log });
  for (const job of defineJobs({
    sessions: sessionService,
    loginLimiter,
    rateLimits,
    tus,
    files,
    uploadSweepIntervalMs:
      overrides.uploadSweepIntervalMs ?? Math.min(Math.max(config.uploads.orphanGraceMs / 2, 60_000), HOUR_MS),
    orphanGraceMs: config.uploads.orphanGraceMs,
    audit,
    scheduledNotifications: notices.scheduled,
    scheduledSendIntervalMs: SCHEDULED_SEND_INTERVAL_MS,
    events,
    trash,
    analysis,
    backups: config.backups && {
      intervalMs: config.backups.intervalMs,
      ...createScheduledBackups(config, config.backups, clock),
    },
    log: app.log,
    mail,
  })) {
    scheduler.add(job);
  }
  app.decorate('scheduler', scheduler);
  app.addHook('onReady', async () => scheduler.start());
  app.addHook('preClose', async () => scheduler.stop());

  app.addHook('onReady', async () => {
    for (const route of undeclaredApiRoutes(app.routeTable))
      app.log.error({ method: route.method, url: route.url }, 'API route without an access declaration');
  });

  return app;
}

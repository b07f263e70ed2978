import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createEventBus } from './adapters/event-bus';
import { createWebPushSender, loadVapidKeys } from './adapters/push/web-push-sender';
import type { Config } from './config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './db';
import { systemClock, type Clock } from './lib/time';
import { loadAdminCredentials } from './modules/auth/admin-credentials';
import { loadLocalEngines } from './adapters/ai/local-engines';
import { registerAiModule } from './modules/ai';
import { registerAnalysisRoutes } from './modules/analysis/analysis.routes';
import { registerPreferencesRoutes } from './modules/preferences/preferences.routes';
import { createPreferencesService } from './modules/preferences/preferences.service';
import { createThumbnailJobs, type ThumbnailJobs } from './modules/files/thumbnail-jobs';
import {
  createAnalysisService,
  insightsText,
  type AnalysisService,
  type AnalysisServiceDeps,
} from './modules/analysis/analysis.service';
import { registerArchiveRoutes } from './modules/archive/archive.routes';
import { createArchiveService } from './modules/archive/archive.service';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { createLoginLimiter } from './modules/auth/login-limiter';
import { registerOidcRoutes } from './modules/auth/oidc.routes';
import { createOidcService } from './modules/auth/oidc.service';
import { createSessionService } from './modules/auth/sessions.service';
import { createUsersRepository } from './modules/auth/users.repository';
import { registerDevIdentityProvider } from './modules/dev-idp/dev-idp';
import { createBlobStore } from './adapters/blob-store';
import { createFileDetailsRepository } from './modules/file-details/file-details.repository';
import { registerFileDetailsRoutes } from './modules/file-details/file-details.routes';
import { createFileDetailsService } from './modules/file-details/file-details.service';
import { registerFileRoutes } from './modules/files/files.routes';
import { createFilesRepository } from './modules/files/files.repository';
import { createFilesService } from './modules/files/files.service';
import { registerTusRoutes } from './modules/files/files.tus';
import { createFilesFileSource } from './modules/files/files.file-source';
import { createContactRepository } from './modules/contact/contact.repository';
import { registerContactRoutes } from './modules/contact/contact.routes';
import { createContactService } from './modules/contact/contact.service';
import { createLinksRepository } from './modules/links/links.repository';
import { registerLinksRoutes } from './modules/links/links.routes';
import { createLinkMakerCheck, createLinksService } from './modules/links/links.service';
import { createUnlocker } from './modules/links/unlock-cookie';
import { createSharingRepository } from './modules/sharing/sharing.repository';
import { registerSharingRoutes } from './modules/sharing/sharing.routes';
import { createSharingService } from './modules/sharing/sharing.service';
import { createAccessResolver } from './modules/spaces/access';
import { registerPeopleRoutes } from './modules/people/people.routes';
import { createPeopleService } from './modules/people/people.service';
import { createSearch, registerSearchRoutes, type SearchService } from './modules/search';
import { createFoldersService } from './modules/spaces/folders.service';
import { createTrashRepository } from './modules/trash/trash.repository';
import { registerTrashRoutes } from './modules/trash/trash.routes';
import { createTrashService } from './modules/trash/trash.service';
import { createSpacesRepository } from './modules/spaces/spaces.repository';
import { registerSpacesRoutes } from './modules/spaces/spaces.routes';
import { createWorkspacesService, type MembershipNotice } from './modules/spaces/workspaces.service';
import { registerHealthRoutes, type ReadinessProbe } from './modules/health/health.routes';
import { createDbLeases, createScheduler, defineJobs, type Scheduler } from './jobs';
import { createDomainEvents } from './events';
import { createJobQueue, type JobQueueOptions } from './jobs/queue';
import { createRateLimiter } from './lib/rate-limiter';
import { collectRoutes, enforceAccess, undeclaredApiRoutes } from './plugins/access';
import { enforceRateLimits } from './plugins/rate-limit';
import { registerBodyIdleTimeout } from './plugins/body-timeout';
import { refuseEmptyPathParams } from './plugins/empty-params';
import { registerCsrfProtection } from './plugins/csrf';
import { createSiteOrigin } from './lib/site-origin';
import {
  createNotificationHub,
  parseSessionEnd,
  STREAMS_END_CHANNEL,
  type NotificationHub,
} from './modules/notifications/notification-hub';
import { createNotificationsRepository } from './modules/notifications/notifications.repository';
import { registerNotificationRoutes } from './modules/notifications/notifications.routes';
import { countLiveDeliveries, createNotificationsService } from './modules/notifications/notifications.service';
import { registerAdminNotificationRoutes } from './modules/notifications/admin-notifications.routes';
import { createScheduledNotificationsRepository } from './modules/notifications/scheduled-notifications.repository';
import {
  createScheduledNotificationsService,
  SCHEDULED_SEND_INTERVAL_MS,
} from './modules/notifications/scheduled-notifications.service';
import { registerErrorHandling, sendError, toAppError } from './plugins/errors';
import { registerMetrics } from './plugins/metrics';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security';
import { registerSessions } from './plugins/session';
import { registerSpa } from './plugins/spa';
import { createAuditRepository } from './modules/audit/audit.repository';
import { registerAuditRoutes } from './modules/audit/audit.routes';
import { createAuditService } from './modules/audit/audit.service';
import { subscribeAuditLog } from './modules/audit/audit.subscriptions';
import { createAdminUsersRepository } from './modules/admin/admin-users.repository';
import { createAdminUsersService } from './modules/admin/admin-users.service';
import { registerAdminRoutes } from './modules/admin/admin.routes';
import { registerSystemRoutes } from './modules/admin/system.routes';
import { createSettingsRepository } from './modules/admin/settings.repository';
import { registerSettingsRoutes } from './modules/admin/settings.routes';
import { createSettingsService } from './modules/admin/settings.service';

export interface AppOverrides {
  clock?: Clock;
  /** Pino options or false; tests pass false to keep output quiet. */
  logger?: boolean | Record<string, unknown>;
  /** How often leftovers of interrupted uploads are swept (tests; default: half the grace period, 1 min–1 h). */
  uploadSweepIntervalMs?: number;
  /** The background job queue's figures for the system screen (tests; default: the job queue's `stats()`). */
  queueStats?: () => Promise<{ queued: number; running: number; failed: number }>;
  /** Background analysis: `onAnalysed` (default: the search index's `setContent`). */
  analysis?: Pick<AnalysisServiceDeps, 'onAnalysed'>;
  /** The job queue's tuning, over every kind's own (tests). */
  jobQueue?: Pick<JobQueueOptions, 'pollMs' | 'leaseMs' | 'backoffMs' | 'maxAttempts'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    notificationHub: NotificationHub;
    /** The scheduled jobs (jobs/): tests run one at once with `scheduler.runNow(name)`. */
    scheduler: Scheduler;
    /** Background analysis of stored files (modules/analysis), for tests. */
    analysis: AnalysisService;
    /** Search (issue 16); `searchIndex.setContent(fileId, text)` is how background analysis feeds a file's text in. */
    searchIndex: SearchService;
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
  registerMetrics(app, { token: config.metricsToken });
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
    ...overrides.jobQueue,
  });
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
  // The audit log: modules emit audited events; the audit module's subscriptions record each one.
  const audit = createAuditService({
    repo: createAuditRepository(database.db),
    clock,
    retentionDays: config.audit.retentionDays,
    log: app.log,
  });
  const events = createDomainEvents({ log: app.log });
  subscribeAuditLog(events, audit);
  const adminUsersRepo = createAdminUsersRepository(database.db, clock);
  const rateLimiter = createRateLimiter({ db: database.db, clock });
  const rateLimits = enforceRateLimits(app, rateLimiter);
  const admin = await loadAdminCredentials({ ...config.admin, dataDir: config.dataDir });
  if (admin.generatedPassword) {
    app.log.warn(
      { username: admin.username, password: admin.generatedPassword },
      'Generated a password for the built-in admin. It is shown only this once; set ADMIN_PASSWORD to choose your own.',
    );
  }
  const limiter = createLoginLimiter({ db: database.db, clock, ...config.loginRateLimit });
  const auth = createAuthService({ users, admin, providerName: config.providerName, limiter });
  const oidc =
    config.oidc &&
    createOidcService({
      ...config.oidc,
      publicUrl: config.publicUrl,
      embedded: config.oidc.mode === 'embedded',
    });
  if (config.oidc?.mode === 'embedded' && oidc) {
    if (config.isProduction) app.log.warn('The development identity provider is enabled in production');
    await registerDevIdentityProvider(app, {
      ...config.oidc,
      publicUrl: config.publicUrl,
      anyOrigin: !config.publicUrlConfigured,
      redirectUri: oidc.redirectUri,
      dataDir: config.dataDir,
      sessionSecret: config.session.secret,
      trustProxy: config.trustProxy.length > 0,
    });
  }

  const blobs = createBlobStore(config);
  app.addHook('onClose', async () => blobs.close());
  probes.set('blobStore', async () => (await blobs.ping(), { status: 'ok' as const, message: blobs.kind }));
  // Spaces (personal and workspaces), their folders, and who may reach what in them.
  const spacesRepo = createSpacesRepository(database.db);
  const access = createAccessResolver(database.db);
  const settings = createSettingsService({ repo: createSettingsRepository(database.db), clock });
  // The membership notice goes out through the notifications service, built below (after the event bus).
  const membershipNotices: { notify?: (notice: MembershipNotice) => Promise<unknown> } = {};
  const workspaces = createWorkspacesService({
    repo: spacesRepo,
    blobs,
    clock,
    quotaBytes: config.uploads.workspaceQuotaBytes,
    log: app.log,
    consent: {
      mustAccept: () => settings.membersMustAccept(),
      notify: async (notice) => membershipNotices.notify?.(notice),
    },
  });
  const folders = createFoldersService({
    repo: spacesRepo,
    workspaces,
    access,
    blobs,
    clock,
    log: app.log,
    events,
  });
  // A cycle or a tree deeper than the cap stored before the cap existed would stall every walk up from its folders:
  // break it before the first request (docs/PRODUCT.md#workspaces-and-folders).
  await folders.repairTree();
  const filesRepo = createFilesRepository(database.db);
  // Background analysis needs the files service and the AI module, built below: bound once they exist.
  const late: { analysis?: AnalysisService; thumbnails?: ThumbnailJobs } = {};
  const files = createFilesService({
    repo: filesRepo,
    blobs,
    clock,
    limits: config.uploads,
    access,
    placement: folders,
    quotas: adminUsersRepo,
    versionsKept: config.versions.kept,
    log: app.log,
    onStored: async (file) => {
      await late.analysis?.onStored(file);
      await late.thumbnails?.onStored(file);
    },
    events,
  });

  // Event bus between instances: in-process, or Redis pub/sub with REDIS_URL.
  const bus = await createEventBus({
    redisUrl: config.bus.redisUrl,
    channelPrefix: config.bus.channelPrefix,
    onError: (error) => app.log.warn({ err: error }, 'event bus error'),
  });
  app.addHook('onClose', async () => bus.close());
  probes.set('bus', async () => (await bus.ping(), { status: 'ok' as const }));

  const notificationsRepo = createNotificationsRepository(database.db, database.dialect, clock);
  const hub = createNotificationHub({
    repo: notificationsRepo,
    bus,
    heartbeatMs: config.notifications.heartbeatMs,
    log: app.log,
    liveSessions: (ids) => sessionService.liveSessionIds(ids),
    onDelivered: countLiveDeliveries(notificationsRepo, app.log),
  });
  // A session that ends (sign-out, replaced, expired) ends its notification streams on every instance.
  sessionService.onEnded((ended) =>
    hub.endStreamsOf(ended).catch((error: unknown) => app.log.warn({ err: error }, 'could not end streams')),
  );
  await hub.start();
  // Ends announced by any instance also drop the session from the stream route's memory of verified sessions.
  const unsubscribeSessionEnds = await bus.subscribe(STREAMS_END_CHANNEL, (message) => {
    const ended = parseSessionEnd(message);
    if (ended) sessionService.forgetCached(ended);
  });
  app.addHook('preClose', async () => unsubscribeSessionEnds().catch(() => undefined));
  app.decorate('notificationHub', hub);
  // Streams never finish by themselves: end them first so close() does not wait on them.
  app.addHook('preClose', async () => hub.close());
  const notifications = createNotificationsService({
    repo: notificationsRepo,
    hub,
    push: createWebPushSender({
      keys: loadVapidKeys(config.notifications.vapid, config.dataDir),
      subject: config.notifications.vapidSubject,
      allowLoopback: config.notifications.pushAllowLoopback,
    }),
    log: app.log,
    limiter: rateLimiter,
  });
  membershipNotices.notify = (notice) => notifications.notifyMembership(notice);
  app.addHook('preClose', async () => notifications.drain());

  registerHealthRoutes(app, probes);
  registerAuthRoutes(app, {
    auth,
    sessions,
    authConfig: { providerName: config.providerName, oidcEnabled: Boolean(oidc), publicUrl: site.fixed },
    async logoutRedirect(user, request) {
      const row = user && oidc ? await users.findById(user.id) : undefined;
      return (row?.oidc_issuer && (await oidc?.endSessionUrl(site.of(request)))) || '/';
    },
    events,
  });
  registerOidcRoutes(app, {
    oidc,
    auth,
    sessions,
    site,
    sessionSecret: config.session.secret,
    secureCookies: config.session.cookieSecure,
    events,
  });
  await registerFileRoutes(app, {
    files,
    uploadTarget: folders.uploadTarget,
    maxUploadBytes: config.uploads.maxBytes,
    events,
  });
  const tus = await registerTusRoutes(app, { files, uploadTarget: folders.uploadTarget, blobs, bus, config });
  const { ai } = await registerAiModule(app, {
    config: config.ai,
    db: database.db,
    clock,
    probes,
    files: createFilesFileSource(files),
    loadLocalEngines: () => loadLocalEngines(config.ai),
    events,
  });
  const search = createSearch(database.db, database.dialect, access);
  app.decorate('searchIndex', search);
  // People in photos (issue 17): clustered as analysis saves each photo's faces; names feed the search content.
  const people = createPeopleService({
    db: database.db,
    clock,
    workspaces,
    setContent: (fileId, text) => search.setContent(fileId, text),
    analysedText: (fileId) => insightsText(database.db, fileId),
    async reanalyse(fileIds) {
      for (const id of fileIds) {
        const file = await files.findUnchecked(id);
        if (file) await late.analysis?.onStored(file);
      }
    },
  });
  registerPeopleRoutes(app, { people, events });
  const analysis = createAnalysisService({
    workspaces,
    people,
    db: database.db,
    queue: jobQueue,
    clock,
    ai,
    files: {
      get: files.get,
      findUnchecked: files.findUnchecked,
      read: (file) => files.blobOf(file).open(),
    },
    log: app.log,
    enabled: config.analysis.enabled,
    timeoutMs: config.analysis.timeoutMs,
    // What analysis read in a file (OCR, transcript, document text, tags, caption) becomes searchable.
    onAnalysed: async (fileId, text) => void (await search.setContent(fileId, await people.withNames(fileId, text))),
    ...overrides.analysis,
  });
  registerAnalysisRoutes(app, { analysis, events });
  late.analysis = analysis;
  app.decorate('analysis', analysis);
  // Thumbnails of new uploads, made in the background (THUMBNAILS_IN_BACKGROUND); otherwise on first request.
  if (config.thumbnails.inBackground) {
    late.thumbnails = createThumbnailJobs({ queue: jobQueue, files, log: app.log });
  }
  registerPreferencesRoutes(app, { preferences: createPreferencesService({ db: database.db, clock }) });
  registerNotificationRoutes(app, { notifications, hub, events });
  const scheduledNotifications = createScheduledNotificationsService({
    repo: createScheduledNotificationsRepository(database.db),
    notifications,
    events,
    clock,
    log: app.log,
  });
  registerAdminNotificationRoutes(app, { notifications, scheduled: scheduledNotifications, events });
  registerAdminRoutes(app, {
    users: createAdminUsersService({
      repo: adminUsersRepo,
      sessions: sessionService,
      events,
      clock,
      defaultQuotaBytes: config.uploads.userQuotaBytes,
      spaces: workspaces,
    }),
  });
  registerSystemRoutes(app, {
    config,
    database,
    probes,
    openStreams: () => hub.size,
    pushSubscriptions: () => notificationsRepo.countPushSubscriptions(),
    scheduledPending: () => scheduledNotifications.countPending(),
    queueStats: overrides.queueStats ?? (() => jobQueue.stats()),
    tusBytes: () => tus.pendingBytes(),
  });
  registerAuditRoutes(app, { audit });
  registerSpacesRoutes(app, { workspaces, folders, events });
  registerSettingsRoutes(app, { settings, events });
  const trash = createTrashService({
    repo: createTrashRepository(database.db),
    filesRepo,
    spacesRepo,
    files,
    folders,
    access,
    clock,
    retentionDays: config.trash.retentionDays,
  });
  registerTrashRoutes(app, { trash, events });
  const linksRepo = createLinksRepository(database.db);
  registerArchiveRoutes(app, { archive: createArchiveService({ files, folders, tree: linksRepo }) });
  registerFileDetailsRoutes(app, {
    details: createFileDetailsService({
      repo: createFileDetailsRepository(database.db),
      files,
      links: linksRepo,
      linkMakerMayShare: createLinkMakerCheck({ users, files, folders }),
      access,
      clock,
    }),
  });
  await registerLinksRoutes(app, {
    links: createLinksService({
      repo: linksRepo,
      files,
      folders,
      unlocker: createUnlocker(config.session.secret),
      limiter: rateLimiter,
      clock,
      users,
    }),
    events,
    maxUploadBytes: config.uploads.maxBytes,
    secureCookies: config.session.cookieSecure,
  });
  registerSharingRoutes(app, {
    sharing: createSharingService({
      repo: createSharingRepository(database.db),
      files,
      folders,
      spaces: spacesRepo,
      notifyUser: notifications.notifyUser,
      clock,
      log: app.log,
    }),
    events,
  });
  registerSearchRoutes(app, { search });
  registerContactRoutes(app, {
    contact: createContactService({ repo: createContactRepository(database.db), clock }),
    maxPerHour: config.contact.maxPerHour,
  });
  await registerSpa(app, config.webDist);

  // Scheduled work: one home (jobs/), started when the server is ready and stopped (runs awaited) on close.
  const scheduler = createScheduler({ leases: createDbLeases({ db: database.db, clock }), log: app.log });
  for (const job of defineJobs({
    sessions: sessionService,
    loginLimiter: limiter,
    rateLimits,
    tus,
    files,
    uploadSweepIntervalMs:
      overrides.uploadSweepIntervalMs ?? Math.min(Math.max(config.uploads.orphanGraceMs / 2, 60_000), HOUR_MS),
    orphanGraceMs: config.uploads.orphanGraceMs,
    audit,
    scheduledNotifications,
    scheduledSendIntervalMs: SCHEDULED_SEND_INTERVAL_MS,
    events,
    trash,
    log: app.log,
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

import type { FastifyInstance } from 'fastify';
import { createHttpServer } from './app-http';
import { createEventBus } from './adapters/event-bus';
import type { Config } from './config';
import { migrateToLatest, openDatabase } from './db';
import { systemClock } from './lib/time';
import { loadLocalEngines } from './adapters/ai/local-engines';
import { createAiModule } from './modules/ai';
import { createLlmModule } from './modules/llm';
import { createAppPasswordsModule } from './modules/app-passwords';
import { createPreferencesModule } from './modules/preferences';
import { ANALYSIS_VERSION, createAnalysisModule } from './modules/analysis';
import { createArchiveModule } from './modules/archive';
import { createFactorsModule } from './modules/factors';
import { createAuthModule } from './modules/auth';
import { createSessionService } from './modules/auth/sessions.service';
import { createUsersRepository } from './modules/auth/users.repository';
import { createBlobStore } from './adapters/blob-store';
import { createFileDetailsModule } from './modules/file-details';
import { createFilesModule, createThumbnailsModule } from './modules/files';
import { createContactModule } from './modules/contact';
import { createNextcloudModule } from './modules/nextcloud';
import { createMailModule } from './modules/mail';
import { createLinksModule } from './modules/links';
import { createSharingModule } from './modules/sharing';
import { createPeopleModule } from './modules/people';
import { SHARED_SPACE_NAME, createSearchModule } from './modules/search';
import { createAskModule } from './modules/ask';
import { createTrashModule } from './modules/trash';
import { createSpacesModule } from './modules/spaces';
import { createHealthModule, type ReadinessProbe } from './modules/health';
import { createDbLeases, createScheduler, defineJobs } from './jobs';
import { createRateLimiter } from './lib/rate-limiter';
import { enforceAccess, undeclaredApiRoutes } from './plugins/access';
import { enforceRateLimits } from './plugins/rate-limit';
import { registerCsrfProtection } from './plugins/csrf';
import { createSiteOrigin } from './lib/site-origin';
import { createNotificationsModule, SCHEDULED_SEND_INTERVAL_MS } from './modules/notifications';
import { registerAppMetrics } from './plugins/app-metrics';
import { createScheduledBackups } from './ops/scheduled-backups';
import { registerMetrics } from './plugins/metrics';
import { Registry } from 'prom-client';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security';
import { registerSessions } from './plugins/session';
import { registerSpa } from './plugins/spa';
import { createAccountsModule } from './modules/accounts';
import { createActivityModule } from './modules/activity';
import { createAuditModule } from './modules/audit';
import { createDavModule, createDavWriteLocks } from './modules/dav';
import { createAdminModule, createAdminStores } from './modules/admin';
import { createDomainEvents } from './events';
import { createJobQueue, type JobQueueOptions } from './jobs/queue';

import type { AppOverrides } from './app-types';

export type { AppOverrides } from './app-types';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Builds the whole server without listening: main.ts listens on it, tests
 * call inject() or listen on a random port.
 */
export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const clock = overrides.clock ?? systemClock;
  const app = createHttpServer(config, overrides);

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
  const { secondFactor } = createFactorsModule(app, {
    db: database.db,
    clock,
    config,
    users,
    sessions,
    events,
    site,
    // Read at request time only: the auth module (created next) needs this module's second-factor gate first.
    ownPasswordCheck: (user) => authFace.ownPasswordCheck(user),
  });
  const { loginLimiter, ...authFace } = await createAuthModule(app, {
    db: database.db,
    clock,
    config,
    users,
    sessions,
    site,
    events,
    secondFactor,
  });

  const { appPasswords } = createAppPasswordsModule(app, { db: database.db, clock, rateLimiter, config, events });

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

  // WebDAV locks every change of a file or folder honours, in the app too (docs/PRODUCT.md#webdav).
  const writeLocks = createDavWriteLocks({ db: database.db, clock });
  const { workspaces, folders, access, spacesRepo } = await createSpacesModule(app, {
    writeLocks,
    db: database.db,
    blobs,
    clock,
    workspaceQuotaBytes: config.uploads.workspaceQuotaBytes,
    log: app.log,
    consent: { mustAccept: () => adminStores.settings.membersMustAccept() },
    events,
  });
  const { files, filesRepo, tus, fileSource, reader } = await createFilesModule(app, {
    writeLocks,
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
  // Generated answers and passage embeddings for Ask: a provider, an uploaded model, or none (docs/PRODUCT.md#ai-models).
  const { llm } = await createLlmModule(app, {
    db: database.db,
    config: config.llm,
    dataDir: config.dataDir,
    idleUnloadMs: config.ai.idleUnloadMs,
    clock,
    events,
  });
  app.decorate('llm', llm);
  const { people } = createPeopleModule(app, { db: database.db, clock, workspaces, events });
  const { analysis, analysedText, analysedParts } = createAnalysisModule(app, {
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
  const { ask } = createAskModule(app, {
    db: database.db,
    dialect: database.dialect,
    events,
    analysedParts,
    generator: overrides.askModels?.generator ?? (() => llm.currentGenerator()),
    embedder: overrides.askModels?.embedder ?? (() => llm.currentEmbedder()),
    limiter: rateLimiter,
    log: app.log,
    spaces: spacesRepo,
  });
  app.decorate('ask', ask);
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
  const { sharing } = createSharingModule(app, { db: database.db, files, folders, spaces: spacesRepo, clock, events });
  const davDeps = { appPasswords, files, folders, workspaces, sharing, events, clock };
  const { chunkedUploads } = await createDavModule(app, {
    ...davDeps,
    db: database.db,
    dialect: database.dialect,
    blobs,
    maxUploadBytes: config.uploads.maxBytes,
  });
  createActivityModule(app, { db: database.db, access, files, clock, sharedSpaceName: SHARED_SPACE_NAME });
  createContactModule(app, { db: database.db, clock, maxPerHour: config.contact.maxPerHour });
  createAccountsModule(app, {
    db: database.db,
    clock,
    events,
    users,
    credentials: authFace.credentials,
    completePasswordLogin: authFace.completePasswordLogin,
    onOidcSignIn: authFace.onOidcSignIn,
    adminUsername: authFace.adminUsername,
    ttlDays: config.invitations.ttlDays,
    publicUrl: config.publicUrl,
    mailEnabled: Boolean(config.mail),
    authorizeWorkspace: (actor, id) => workspaces.authorize(actor, id, 'manage'),
    endSessions: (userId, exceptSessionId) => sessionService.destroyAllForUser(userId, exceptSessionId),
    limitPasswordChecks: (ip, username) => loginLimiter.consume(ip, username),
  });
  // Nextcloud client discovery (docs/PRODUCT.md#nextcloud-clients): Basic logins are app passwords.
  const { loginFlows } = await createNextcloudModule(app, {
    db: database.db,
    clock,
    events,
    site,
    appPasswords,
    verifyAppPassword: (loginName, password, ip) => appPasswords.verify(loginName, password, ip),
    quotaOf: async (user) => {
      const total = (await adminStores.quotas.quotaOf(user.ownerKey)) ?? config.uploads.userQuotaBytes;
      return { total, free: await files.remainingQuota({ workspaceId: null, ownerKey: user.ownerKey }) };
    },
  });
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
    analysis: { backfill: analysis.backfill, version: ANALYSIS_VERSION, enabled: config.analysis.enabled },
    ask: { backfill: ask.backfill },
    backups: config.backups && {
      intervalMs: config.backups.intervalMs,
      ...createScheduledBackups(config, config.backups, clock),
    },
    log: app.log,
    mail,
    nextcloud: {
      sweep: async () => ({ loginFlows: await loginFlows.sweep(), chunkedUploads: await chunkedUploads.sweep() }),
    },
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

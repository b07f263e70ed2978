import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './db';
import { systemClock, type Clock } from './lib/time';
import { loadAdminCredentials } from './modules/auth/admin-credentials';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { createSessionService } from './modules/auth/sessions.service';
import { createUsersRepository } from './modules/auth/users.repository';
import { createContactRepository } from './modules/contact/contact.repository';
import { registerContactRoutes } from './modules/contact/contact.routes';
import { createContactService } from './modules/contact/contact.service';
import { registerHealthRoutes, type ReadinessProbe } from './modules/health/health.routes';
import { registerErrorHandling } from './plugins/errors';
import { registerMetrics } from './plugins/metrics';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security';
import { registerSessions } from './plugins/session';
import { registerSpa } from './plugins/spa';

export interface AppOverrides {
  clock?: Clock;
  /** Pino options or false; tests pass false to keep output quiet. */
  logger?: boolean | Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
  }
}

const SESSION_SWEEP_MS = 60 * 60 * 1000;

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
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.decorate('config', config);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  // Graceful shutdown: answers finished after close() began also close their
  // keep-alive connection, so close() does not wait on idle sockets.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });

  await registerSecurityHeaders(app, { https: config.publicUrl.startsWith('https://') });
  registerMetrics(app);
  await registerOpenApi(app);

  const database = openDatabase(config.database);
  app.decorate('database', database);
  app.addHook('onClose', async () => database.close());
  const applied = await migrateToLatest(database.db);
  if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated');

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
  const admin = await loadAdminCredentials({ ...config.admin, dataDir: config.dataDir });
  if (admin.generatedPassword) {
    app.log.warn(
      { username: admin.username, password: admin.generatedPassword },
      'Generated a password for the built-in admin. It is shown only this once; set ADMIN_PASSWORD to choose your own.',
    );
  }
  const auth = createAuthService({ users, admin, providerName: 'Auth0' });

  registerHealthRoutes(app, probes);
  registerAuthRoutes(app, { auth, sessions });
  registerContactRoutes(app, {
    contact: createContactService({
      repo: createContactRepository(database.db),
      clock,
      maxPerHour: config.contact.maxPerHour,
    }),
  });
  await registerSpa(app, config.webDist);

  const sweep = setInterval(() => {
    sessionService.sweep().catch((error: unknown) => app.log.warn({ err: error }, 'session sweep failed'));
  }, SESSION_SWEEP_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  return app;
}

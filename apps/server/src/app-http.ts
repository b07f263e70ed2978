// The HTTP layer every Atrium server starts from (app.ts builds the rest on it): Fastify with its logger, request ids,
// the JSON error shape for every refusal (the router's own included), route collection for the access checks, the
// body idle time-out, and a graceful close that also ends keep-alive connections.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppOverrides } from './app-types';
import type { Config } from './config';
import { readableLogStream } from './lib/readable-log';
import { collectRoutes } from './plugins/access';
import { registerBodyIdleTimeout } from './plugins/body-timeout';
import { refuseEmptyPathParams } from './plugins/empty-params';
import { registerErrorHandling, sendError, toAppError } from './plugins/errors';

export function createHttpServer(config: Config, overrides: AppOverrides): FastifyInstance {
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

  return app;
}

// The HTTP layer every Atrium server starts from (app.ts builds the rest on it): Fastify with its logger, request ids,
// the JSON error shape for every refusal (the router's own included), route collection for the access checks, the
// body idle time-out, and a graceful close that loses no request (plugins/graceful-close.ts).
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
import { registerGracefulClose } from './plugins/graceful-close';

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
    // Requests that reach a closing instance are served (plugins/graceful-close.ts).
    return503OnClosing: false,
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
  registerGracefulClose(app);

  return app;
}

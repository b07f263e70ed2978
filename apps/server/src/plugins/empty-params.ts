import type { FastifyInstance } from 'fastify';
import { routeNotFound } from './errors';

/**
 * A path parameter is never empty: `DELETE /api/trash/` is no trash item, `POST /api/trash//restore` restores
 * nothing. The router matches such paths to the parameter's route with the parameter `''` (a trailing slash is not
 * folded into the route without it, see `ignoreTrailingSlash` in app.ts); here they answer 404 like any path no
 * route has, before any other hook (session, access, rate limits) or a handler runs, so no route can be reached
 * with an empty parameter and act. A wildcard (`*`) may be empty: it is a prefix's remainder, not an id.
 */
export function refuseEmptyPathParams(app: FastifyInstance) {
  app.addHook('onRequest', (request, _reply, done) => {
    const params = request.params as Record<string, string | undefined> | undefined;
    const empty = params && Object.entries(params).some(([name, value]) => name !== '*' && value === '');
    done(empty ? routeNotFound(request) : undefined);
  });
}

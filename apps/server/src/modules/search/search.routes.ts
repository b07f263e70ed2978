import { ENDPOINTS, ErrorResponse } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SearchService } from './search.service';

/**
 * `GET /api/search` (issue 16): signed-in users; what each may see is decided in the query itself
 * (`readableScope`, `auth/access-facts.ts`), so nothing is loaded that the caller may not read.
 */
export function registerSearchRoutes(app: FastifyInstance, deps: { search: SearchService }) {
  const { search } = ENDPOINTS.search;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: search.method,
    url: search.path,
    config: { access: 'user' },
    schema: {
      tags: ['search'],
      summary:
        'Search the names (and content text) of the files and folders the caller can read: name prefixes as typed, best first',
      querystring: search.query,
      response: { 200: search.response, 400: ErrorResponse, 401: ErrorResponse },
    },
    handler: async (request) => deps.search.search(await request.requireUser(), request.query),
  });
}

import { ENDPOINTS } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { SearchService } from './search.service';
import { route } from '../../plugins/route';

/**
 * `GET /api/search` (docs/PRODUCT.md#search): signed-in users; what each may see is decided in the query itself
 * (`readableScope`, `auth/access-facts.ts`), so nothing is loaded that the caller may not read.
 */
export function registerSearchRoutes(app: FastifyInstance, deps: { search: SearchService }) {
  const { search } = ENDPOINTS.search;
  route(app, search, {
    config: { access: 'user' },
    tags: ['search'],
    summary:
      'Search the names (and content text) of the files and folders the caller can read: name prefixes as typed, best first',
    errors: [400],
    handler: async (request) => deps.search.search(await request.requireUser(), request.query),
  });
}

/**
 * The search module's face: `GET /api/search` over the files and folders the caller can read, and THE composition of
 * a file's searchable content (`search-content.ts`, on `file.analysed` and `people.changed`).
 */
import type { FastifyInstance } from 'fastify';
import type { Db, Dialect } from '../../db';
import type { EventSubscriber } from '../../events';
import type { AccessResolver } from '../../auth/access-facts';
import { subscribeSearchContent, type SearchContentSources } from './search-content';
import { createSearchRepository } from './search.repository';
import { registerSearchRoutes } from './search.routes';
import { createSearchService } from './search.service';

export type { SearchService } from './search.service';

export interface SearchModuleDeps extends SearchContentSources {
  db: Db;
  dialect: Dialect;
  access: AccessResolver;
  events: EventSubscriber;
}

export function createSearchModule(app: FastifyInstance, deps: SearchModuleDeps) {
  const search = createSearchService({ repo: createSearchRepository(deps.db, deps.dialect), access: deps.access });
  registerSearchRoutes(app, { search });
  subscribeSearchContent({
    events: deps.events,
    setContent: search.setContent,
    analysedText: deps.analysedText,
    namesIn: deps.namesIn,
  });
  return { search };
}

// What other modules may use (docs/ARCHITECTURE.md#server-layers: only through this face).
export { SHARED_SPACE_NAME } from './search.service';

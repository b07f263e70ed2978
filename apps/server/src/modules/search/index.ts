/**
 * The search module's face: `GET /api/search` over the files and folders the caller can read, and THE composition of
 * a file's searchable content (`search-content.ts`, on `file.analysed` and `people.changed`).
 *
 * Tables `search_documents` (one row per file or folder with what a search filters, orders and answers on) and the
 * engine's index (SQLite FTS5 `search_fts`; PostgreSQL tsvector columns with GIN indexes), migrations 0017, 0023 and
 * 0024; triggers on `files` and `folders` keep them in step with every write, so no service has to remember to
 * (docs/PRODUCT.md#search).
 *
 * `search.repository.ts`: the query text becomes words (`searchTerms`: letters and digits only, each a prefix, all
 * required); who sees a row is `readableScope` from `auth/access-facts.ts`, in the query itself. Two phases keep a
 * common word fast: names first, then content in the engine's order, stopping at the page's end; on SQLite the content
 * phase runs in arms narrowed by scope tokens (`scopeToken`) so FTS5 never walks what the searcher cannot see.
 * `search.service.ts` builds each result's location (cut to the highest shared folder for share-only readers) and its
 * snippet (`snippet.ts`).
 *
 * `search-content.ts` `composeContent`: a file's content is what analysis read plus the names of the people in it,
 * written through `setContent` (at most `CONTENT_MAX` characters) whenever `file.analysed` or `people.changed` arrives.
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

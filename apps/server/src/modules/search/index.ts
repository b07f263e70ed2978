import type { Db, Dialect } from '../../db';
import type { AccessResolver } from '../spaces/access';
import { createSearchRepository } from './search.repository';
import { createSearchService } from './search.service';

export { registerSearchRoutes } from './search.routes';
export type { SearchService } from './search.service';

/** The search module: its service (`search`, and `setContent` for the background analysis). */
export const createSearch = (db: Db, dialect: Dialect, access: AccessResolver) =>
  createSearchService({ repo: createSearchRepository(db, dialect), access });

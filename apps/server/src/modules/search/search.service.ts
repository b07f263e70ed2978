import {
  PERSONAL_SPACE_NAME,
  searchTerms,
  type FolderCrumb,
  type SearchLocation,
  type SearchQuery,
  type SearchResponse,
  type SearchResult,
} from '@atrium/contracts';
import type { UserActor } from '../../auth/actor';
import { AppError } from '../../errors';
import type { AccessResolver } from '../../auth/access-facts';
import type { ChainRow, SearchFilters, SearchHitRow, SearchRepository } from './search.repository';
import { snippetOf } from './snippet';

/** The space name shown for items reached only through a share. */
export const SHARED_SPACE_NAME = 'Shared with me';
/** Deepest page a cursor may ask for (search is for finding, not for walking everything). */
const OFFSET_MAX = 1_000;

export const SEARCH_MESSAGES = {
  badCursor: 'The cursor is not valid for this search. Start again from the first page.',
  badRange: 'The start of the date range is after its end.',
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The filters of a query as the repository reads them: ISO-8601 UTC bounds, `to` exclusive. */
function filtersOf(query: SearchQuery): SearchFilters {
  const from = query.from === undefined ? undefined : new Date(query.from).toISOString();
  let toExclusive: string | undefined;
  if (query.to !== undefined) {
    const to = new Date(query.to).getTime();
    toExclusive = new Date(isDateOnly(query.to) ? to + DAY_MS : to + 1).toISOString();
  }
  if (from !== undefined && toExclusive !== undefined && from >= toExclusive) {
    throw new AppError('BAD_REQUEST', SEARCH_MESSAGES.badRange);
  }
  return { type: query.type, from, toExclusive, space: query.spaceId };
}

const encodeCursor = (offset: number, terms: string[]) =>
  Buffer.from(JSON.stringify([offset, terms.join(' ')])).toString('base64url');

function decodeCursor(raw: string, terms: string[]): number {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      Number.isInteger(value[0]) &&
      (value[0] as number) > 0 &&
      (value[0] as number) <= OFFSET_MAX &&
      value[1] === terms.join(' ')
    ) {
      return value[0] as number;
    }
  } catch {
    // fall through
  }
  throw new AppError('BAD_REQUEST', SEARCH_MESSAGES.badCursor);
}

export interface SearchServiceDeps {
  repo: SearchRepository;
  access: AccessResolver;
}

/**
 * Search over names (and, once analysis fills it, content text) of everything a user can read: their personal
 * space, their workspaces, and what is shared with them (`readableScope` in `auth/access-facts.ts`). The matching
 * engine is the database's own (`search.repository.ts`); the words of the query go through `searchTerms`, so no
 * engine syntax ever reaches it.
 */
export function createSearchService({ repo, access }: SearchServiceDeps) {
  /** Breadcrumbs for each result's folder; cut to the highest shared folder for items reached through a share. */
  async function locations(actor: UserActor, rows: SearchHitRow[]): Promise<Map<string, SearchLocation>> {
    const placeIds = [...new Set(rows.flatMap((row) => (row.place_id === null ? [] : [row.place_id])))];
    const chainRows = await repo.chains(placeIds);
    const byStart = new Map<string, ChainRow[]>();
    for (const row of chainRows) byStart.set(row.start_id, [...(byStart.get(row.start_id) ?? []), row]);
    const pathOf = (placeId: string | null): FolderCrumb[] =>
      placeId === null
        ? []
        : (byStart.get(placeId) ?? []).sort((a, b) => b.depth - a.depth).map((row) => ({ id: row.id, name: row.name }));
    const sharedOnly = rows.filter((row) => row.in_own_spaces === 0);
    const shared =
      sharedOnly.length === 0
        ? new Set<string>()
        : await access.sharedFolderIds(actor.id, [
            ...new Set(sharedOnly.flatMap((row) => pathOf(row.place_id).map((crumb) => crumb.id))),
          ]);

    const result = new Map<string, SearchLocation>();
    for (const row of rows) {
      const path = pathOf(row.place_id);
      if (row.in_own_spaces === 1) {
        result.set(row.id, {
          spaceKind: row.workspace_id === null ? 'personal' : 'workspace',
          spaceId: row.workspace_id,
          spaceName: row.workspace_id === null ? PERSONAL_SPACE_NAME : (row.workspace_name ?? ''),
          folderId: row.place_id,
          path,
        });
        continue;
      }
      const top = path.findIndex((crumb) => shared.has(crumb.id));
      const visible = top < 0 ? [] : path.slice(top);
      result.set(row.id, {
        spaceKind: 'shared',
        spaceId: null,
        spaceName: SHARED_SPACE_NAME,
        folderId: visible.at(-1)?.id ?? null,
        path: visible,
      });
    }
    return result;
  }

  return {
    /** `GET /api/search`: one page of results, best first. */
    async search(actor: UserActor, query: SearchQuery): Promise<SearchResponse> {
      const terms = searchTerms(query.q);
      const filters = filtersOf(query);
      const offset = query.cursor === undefined ? 0 : decodeCursor(query.cursor, terms);
      // Nothing searchable in the text (only punctuation or operators): nothing matches.
      if (terms.length === 0) return { items: [], nextCursor: null };
      const rows = await repo.search(actor, terms, filters, { offset, limit: query.limit + 1 });
      const more = rows.length > query.limit;
      if (more) rows.length = query.limit;
      const where = await locations(actor, rows);
      const items = rows.map((row): SearchResult => {
        const inName = row.name_hit === 1 || row.content === null;
        const { snippet, highlights } = inName ? snippetOf(row.name, terms, true) : snippetOf(row.content ?? '', terms);
        return {
          kind: row.kind,
          id: row.id,
          name: row.name,
          matchedIn: inName ? 'name' : 'content',
          snippet,
          highlights,
          location: where.get(row.id) ?? {
            spaceKind: 'shared',
            spaceId: null,
            spaceName: SHARED_SPACE_NAME,
            folderId: null,
            path: [],
          },
          size: row.kind === 'file' ? row.size : null,
          mimeType: row.kind === 'file' ? row.content_type : null,
          modifiedAt: row.modified_at,
        };
      });
      const nextOffset = offset + rows.length;
      return { items, nextCursor: more && nextOffset <= OFFSET_MAX ? encodeCursor(nextOffset, terms) : null };
    },

    /**
     * Sets the text a file's content search matches (null or '' clears it), for the background analysis that
     * extracts it (OCR, PDF text, transcripts). Returns false when the file does not exist (any more).
     */
    setContent: (fileId: string, text: string | null): Promise<boolean> =>
      repo.setContent(fileId, text === null || text.trim() === '' ? null : text),
  };
}

export type SearchService = ReturnType<typeof createSearchService>;

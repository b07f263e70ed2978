import { z } from 'zod';
import { FileKind } from './file-kinds';
import { FolderCrumb } from './workspaces';
import { endpoint } from './endpoint';

/** Longest search text, in characters. */
export const SEARCH_QUERY_MAX = 200;
/** Results per page: default and most. */
export const SEARCH_PAGE_DEFAULT = 20;
export const SEARCH_PAGE_MAX = 50;

const DateOrDateTime = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** GET /api/search */
export const SearchQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'Type something to search for.')
    .max(SEARCH_QUERY_MAX, `Search with at most ${SEARCH_QUERY_MAX} characters.`),
  type: FileKind.optional().describe('Only files of this kind (folders are left out)'),
  from: DateOrDateTime.optional().describe('Modified on or after (ISO-8601 date or date-time)'),
  to: DateOrDateTime.optional().describe('Modified on or before (a date includes that whole day, UTC)'),
  spaceId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('`personal`, `shared` (reached only through shares) or a workspace id'),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(SEARCH_PAGE_MAX).default(SEARCH_PAGE_DEFAULT),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

/** Where a result is: its space and the folders from the space's root (or the highest shared folder) down. */
export const SearchLocation = z
  .object({
    spaceKind: z.enum(['personal', 'workspace', 'shared']).describe('`shared`: reached only through a share'),
    spaceId: z.string().nullable().describe('The workspace id; null for the personal space and shared items'),
    spaceName: z.string(),
    folderId: z
      .string()
      .nullable()
      .describe('The folder that holds the item, to open; null when the caller can only see the item itself'),
    path: z
      .array(FolderCrumb)
      .describe('The folders down to the one holding the item (empty for an item shared alone)'),
  })
  .meta({ id: 'SearchLocation' });
export type SearchLocation = z.infer<typeof SearchLocation>;

/** A character range of the snippet that matched. */
export const SearchHighlight = z.object({ start: z.number().int(), end: z.number().int() });
export type SearchHighlight = z.infer<typeof SearchHighlight>;

export const SearchResult = z
  .object({
    kind: z.enum(['file', 'folder']),
    id: z.string(),
    name: z.string(),
    matchedIn: z.enum(['name', 'content']),
    snippet: z.string().describe('The name, or the part of the content text that matched'),
    highlights: z.array(SearchHighlight).describe('Where in `snippet` the words searched for are'),
    location: SearchLocation,
    size: z.number().int().nonnegative().nullable().describe('Bytes; null for a folder'),
    mimeType: z.string().nullable().describe('Null for a folder'),
    modifiedAt: z.string().describe('ISO-8601'),
  })
  .meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchResponse = z
  .object({
    items: z.array(SearchResult),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'SearchResponse' });
export type SearchResponse = z.infer<typeof SearchResponse>;

/**
 * The words of a search text, as both engines index names: split at anything that is not a letter or a digit,
 * lower-cased. Each is matched as a word prefix; all must match. Operators and quotes are never passed through.
 */
export function searchTerms(text: string): string[] {
  const words = text
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((word) => word.length > 0);
  return [...new Set(words)].slice(0, 16);
}

/** The search endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const searchEndpoints = {
  search: endpoint({ method: 'GET', path: '/api/search', query: SearchQuery, response: SearchResponse }),
} as const;

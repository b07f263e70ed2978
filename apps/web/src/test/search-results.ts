import type { SearchResult } from '@atrium/contracts';

/** A search result of the contracts' shape: a text file in Personal › Reports unless `over` says otherwise. */
export const searchResult = (over: Partial<SearchResult> & Pick<SearchResult, 'id' | 'name'>): SearchResult => ({
  kind: 'file',
  matchedIn: 'name',
  snippet: over.name,
  highlights: [],
  location: {
    spaceKind: 'personal',
    spaceId: null,
    spaceName: 'Personal',
    folderId: 'f-reports',
    path: [
      { id: 'root', name: 'Personal' },
      { id: 'f-reports', name: 'Reports' },
    ],
  },
  size: 2048,
  mimeType: 'text/plain',
  modifiedAt: '2026-11-01T10:00:00.000Z',
  ...over,
});

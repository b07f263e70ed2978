import type { FileKind, FolderSort } from '@atrium/contracts';

/**
 * The TanStack Query keys that cross features: what one feature reads and another refreshes after a change (a
 * delete in the file browser refreshes the trash, an AI result saved to a folder refreshes the folder listings, a
 * membership notice refreshes the spaces). A key that only its own feature uses stays in that feature's `api/`.
 *
 * The keys nest: `files.all()` is the prefix of every files key and `folders.all()` of every folder listing, so one
 * invalidation refreshes all of them.
 */
export const queryKeys = {
  /** GET /api/me (lib/me.ts): who is signed in; the assistant reads it without asking again. */
  me: () => ['me'] as const,
  /** GET /api/me/preferences (lib/queries/preferences.ts). */
  preferences: () => ['me', 'preferences'] as const,

  files: {
    /** Every files query below: whatever changes a file's content or its place refreshes them. */
    all: () => ['files'] as const,
    /** GET /api/files/user/{userId}: the files screens' list. */
    list: (userId: string) => ['files', 'list', userId] as const,
    /** GET /api/files/user-stats/{userId}: the dashboard's card and the files screens. */
    stats: (ownerKey: string) => ['files', 'stats', ownerKey] as const,
    /** GET /api/files/{id}/details: the details panel. */
    details: (id: string) => ['files', 'details', id] as const,
    /** GET /api/files/{id}/versions: the versions dialog. */
    versions: (id: string) => ['files', 'versions', id] as const,
    /** GET /api/files/{id}/insights: what the analysis found. */
    insights: (id: string) => ['files', 'insights', id] as const,
  },

  folders: {
    /** Every folder listing below: whatever adds, moves, renames or deletes an entry refreshes them. */
    all: () => ['folders'] as const,
    /** GET /api/folders/{id}: the file browser's listing, one infinite query per sort, order, page size and type. */
    listing: (id: string, sort: FolderSort, order: 'asc' | 'desc', limit: number, type: FileKind | '' = '') =>
      ['folders', id, sort, order, limit, type] as const,
    /** GET /api/folders/{id} (by name, one page): the pickers (move dialog, stored-file picker). */
    choices: (id: string | null) => ['folders', id, 'choices'] as const,
  },

  /** GET /api/spaces: the personal space and the caller's workspaces. */
  spaces: () => ['spaces'] as const,
  /** GET /api/shared-with-me */
  sharedWithMe: () => ['shared-with-me'] as const,
  /** GET /api/trash */
  trash: () => ['trash'] as const,
  /** GET /api/home, /api/recent, /api/starred (docs/PRODUCT.md#dashboard-home): a star or a change refreshes them all. */
  home: {
    all: () => ['home'] as const,
    summary: () => ['home', 'summary'] as const,
    recent: (limit: number) => ['home', 'recent', limit] as const,
    starred: () => ['home', 'starred'] as const,
  },
  /** GET /api/workspaces/{id}/activity and /api/folders/{id}/activity, per filter. */
  activity: (scope: 'workspace' | 'folder', id: string, actor = '', type = '') =>
    ['activity', scope, id, actor, type] as const,
  /** GET /api/users?q=: the people directory (workspace members, the share dialog). */
  directory: (q: string) => ['directory', q] as const,
};

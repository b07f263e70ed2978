import { ENDPOINTS } from '@atrium/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../api-client';
import { queryKeys } from '../query-keys';

/**
 * The queries several features read (the spaces browser, the share dialog, the stored-file picker of the AI
 * screens): one definition, one cache entry each, under the keys of lib/query-keys.ts (a folder's choices sit under
 * `queryKeys.folders.all()`, so whatever changes a folder refreshes them).
 */

/** GET /api/spaces: the personal space, then each workspace with the caller's role. */
export const spacesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.spaces(), queryFn: () => call(ENDPOINTS.spaces.spaces) });

/** The most entries one listing of a picker shows (the server's page limit). */
export const FOLDER_CHOICES_LIMIT = 1000;

/** GET /api/folders/{id}: one page (by name) of a folder's subfolders and files, for pickers. */
export const folderChoicesQueryOptions = (id: string | null) =>
  queryOptions({
    queryKey: queryKeys.folders.choices(id),
    queryFn: () =>
      call(ENDPOINTS.spaces.folder, { params: { id: id ?? '' }, query: { sort: 'name', limit: FOLDER_CHOICES_LIMIT } }),
    enabled: Boolean(id),
  });

/** GET /api/shared-with-me */
export const sharedWithMeQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.sharedWithMe(), queryFn: () => call(ENDPOINTS.sharing.sharedWithMe) });

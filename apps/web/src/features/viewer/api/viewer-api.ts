import { ENDPOINTS } from '@atrium/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

// What the file viewer reads (docs/PRODUCT.md#file-viewer): the file (its details: name, type, size, where it is, the
// reader's role), what analysis found, and the files of its folder for Previous / Next.

/** How often the insights are asked again while the analysis is pending or running. */
export const INSIGHTS_POLL_MS = 1500;

/** Most files of a folder the viewer steps through. */
export const FOLDER_STEP_LIMIT = 1000;

/** GET /api/files/{id}/details: 404 (or 403) when the reader may not read it; not retried then. */
export const useViewerFile = (id: string) =>
  useQuery({
    queryKey: queryKeys.files.details(id),
    queryFn: () => call(ENDPOINTS.fileDetails.details, { params: { id } }),
    retry: false,
    // Previous / Next: the file shown stays until the next one is known, so the viewer never blinks.
    placeholderData: keepPreviousData,
  });

/** GET /api/files/{id}/insights, asked again while the analysis runs. */
export const useViewerInsights = (id: string) =>
  useQuery({
    queryKey: queryKeys.files.insights(id),
    queryFn: () => call(ENDPOINTS.analysis.insights, { params: { id } }),
    retry: false,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'pending' || status === 'running' ? INSIGHTS_POLL_MS : false;
    },
  });

/** The files of a folder by name (as the file browser lists them first), for Previous / Next. */
export const useFolderFiles = (folderId: string | null) =>
  useQuery({
    queryKey: [...queryKeys.folders.choices(folderId), 'viewer'] as const,
    queryFn: async () => {
      const listing = await call(ENDPOINTS.spaces.folder, {
        params: { id: folderId ?? '' },
        query: { limit: FOLDER_STEP_LIMIT, sort: 'name', order: 'asc' },
      });
      return listing.files.map((file) => ({ id: file.id, name: file.fileName }));
    },
    enabled: folderId !== null,
    retry: false,
  });

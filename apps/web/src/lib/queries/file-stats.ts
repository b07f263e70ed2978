import { ENDPOINTS } from '@atrium/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../api-client';
import { queryKeys } from '../query-keys';

/**
 * GET /api/files/user-stats/{userId}: one query (one cache entry) for every screen that shows it — the dashboard's
 * card and the files screens. Its key sits under `queryKeys.files.all()`, so whatever changes files refreshes it.
 */

export const fileStatsQueryOptions = (ownerKey: string) =>
  queryOptions({
    queryKey: queryKeys.files.stats(ownerKey),
    queryFn: () => call(ENDPOINTS.files.stats, { params: { userId: ownerKey } }),
  });

export const useFileStats = (ownerKey: string | undefined) =>
  useQuery({ ...fileStatsQueryOptions(ownerKey ?? ''), enabled: Boolean(ownerKey) });

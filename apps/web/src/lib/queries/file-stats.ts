import { UserFileStats } from '@atrium/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client';

/**
 * GET /api/files/user-stats/{userId}: one query (one cache entry) for every screen that shows it — the dashboard's
 * card and the files screens. Its key sits under `['files']`, so whatever changes files refreshes it.
 */
export const fileStatsKey = (ownerKey: string) => ['files', 'stats', ownerKey] as const;

export const fileStatsQueryOptions = (ownerKey: string) =>
  queryOptions({
    queryKey: fileStatsKey(ownerKey),
    queryFn: () => api.get(UserFileStats, `/api/files/user-stats/${encodeURIComponent(ownerKey)}`),
  });

export const useFileStats = (ownerKey: string | undefined) =>
  useQuery({ ...fileStatsQueryOptions(ownerKey ?? ''), enabled: Boolean(ownerKey) });

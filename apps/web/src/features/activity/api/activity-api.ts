import { ENDPOINTS } from '@atrium/contracts';
import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { starredQueryOptions } from '../../../lib/stars';

/** Files one page of Recent asks for. */
export const RECENT_PAGE_SIZE = 30;

/** GET /api/recent, paged with its cursor. */
export const recentQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: queryKeys.home.recent(RECENT_PAGE_SIZE),
    queryFn: ({ pageParam }) => call(ENDPOINTS.home.recent, { query: { cursor: pageParam, limit: RECENT_PAGE_SIZE } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useRecent = () => useInfiniteQuery(recentQueryOptions());
export const useStarred = () => useQuery(starredQueryOptions());

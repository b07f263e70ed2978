import { ENDPOINTS, type FileKind } from '@atrium/contracts';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';

/** What a search asks for (GET /api/search). Empty strings mean "not set". */
export interface SearchParams {
  q: string;
  type?: FileKind | '';
  spaceId?: string;
  from?: string;
  to?: string;
  limit?: number;
}

export const searchKeys = {
  all: ['search'] as const,
  query: (params: SearchParams) => ['search', params] as const,
};

/** Search results as pages ("Load more" fetches the next); nothing is asked while `q` is blank. */
export const useSearch = (params: SearchParams) =>
  useInfiniteQuery({
    queryKey: searchKeys.query({ ...params, q: params.q.trim() }),
    queryFn: ({ pageParam, signal }) =>
      // Empty filters are left out of the query (`endpointPath`).
      call(ENDPOINTS.search.search, { query: { ...params, q: params.q.trim(), cursor: pageParam } }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: params.q.trim() !== '',
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

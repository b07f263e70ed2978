import { SearchResponse, type FileKind } from '@atrium/contracts';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../../lib/api-client';

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

/** The query string of a search (page `cursor` optional); empty filters are left out. */
export function searchQueryString(params: SearchParams, cursor?: string): string {
  const query = new URLSearchParams({ q: params.q.trim() });
  if (params.type) query.set('type', params.type);
  if (params.spaceId) query.set('spaceId', params.spaceId);
  if (params.from) query.set('from', params.from);
  if (params.to) query.set('to', params.to);
  if (params.limit) query.set('limit', String(params.limit));
  if (cursor) query.set('cursor', cursor);
  return query.toString();
}

/** Search results as pages ("Load more" fetches the next); nothing is asked while `q` is blank. */
export const useSearch = (params: SearchParams) =>
  useInfiniteQuery({
    queryKey: searchKeys.query({ ...params, q: params.q.trim() }),
    queryFn: ({ pageParam, signal }) =>
      api.get(SearchResponse, `/api/search?${searchQueryString(params, pageParam)}`, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: params.q.trim() !== '',
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

/** `value`, once it has stopped changing for `ms` (search as you type without a request per key). */
export function useDebounced<T>(value: T, ms = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

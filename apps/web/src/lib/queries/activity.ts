import { ENDPOINTS, type ActivityType } from '@atrium/contracts';
import { infiniteQueryOptions, keepPreviousData } from '@tanstack/react-query';
import { call } from '../api-client';
import { queryKeys } from '../query-keys';

/** Where a feed looks: a workspace, or a folder and everything below it (docs/PRODUCT.md#activity). */
export interface ActivityScope {
  kind: 'workspace' | 'folder';
  id: string;
}

export interface ActivityFilter {
  /** A person's user id ('' for everyone). */
  actor: string;
  type: ActivityType | '';
}

/** Entries one page of a feed asks for. */
export const ACTIVITY_PAGE_SIZE = 30;

/** GET /api/workspaces/{id}/activity or /api/folders/{id}/activity, paged with its cursor. */
export const activityQueryOptions = (scope: ActivityScope, filter: ActivityFilter) =>
  infiniteQueryOptions({
    queryKey: queryKeys.activity(scope.kind, scope.id, filter.actor, filter.type),
    queryFn: ({ pageParam }) =>
      call(scope.kind === 'workspace' ? ENDPOINTS.activity.workspace : ENDPOINTS.activity.folder, {
        params: { id: scope.id },
        query: {
          cursor: pageParam,
          limit: ACTIVITY_PAGE_SIZE,
          actor: filter.actor || undefined,
          type: filter.type || undefined,
        },
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });

import { ENDPOINTS, type StarredList } from '@atrium/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './api-client';
import { errorText } from './api-error';
import { queryKeys } from './query-keys';
import { showToast } from './toast';

/** GET /api/starred: what the caller starred and can still read (docs/PRODUCT.md#starred-and-recent). */
export const starredQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.home.starred(), queryFn: () => call(ENDPOINTS.home.starred) });

/**
 * Whether item `id` is starred, and a toggle (`PUT`/`DELETE /api/stars/{kind}/{id}`): the star shows at once and
 * Starred, Recent and the home refresh after. Used by the file browser's menu, the viewer's toolbar (key `s`) and the
 * Starred and Recent pages.
 */
export function useStar(id: string, kind: 'file' | 'folder' = 'file') {
  const client = useQueryClient();
  const starred = useQuery(starredQueryOptions());
  const isStarred = starred.data?.items.some((item) => item.id === id && item.kind === kind) ?? false;
  const mutation = useMutation({
    mutationFn: (star: boolean) => call(star ? ENDPOINTS.home.star : ENDPOINTS.home.unstar, { params: { kind, id } }),
    onMutate: async (star: boolean) => {
      await client.cancelQueries({ queryKey: queryKeys.home.starred() });
      const before = client.getQueryData<StarredList>(queryKeys.home.starred());
      if (before && !star)
        client.setQueryData<StarredList>(queryKeys.home.starred(), {
          items: before.items.filter((item) => !(item.id === id && item.kind === kind)),
        });
      return { before };
    },
    onError: (error, _star, context) => {
      if (context?.before) client.setQueryData(queryKeys.home.starred(), context.before);
      showToast('error', errorText(error) ?? 'Could not change the star.');
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.home.all() }),
  });
  const pendingStar = mutation.isPending ? mutation.variables : undefined;
  return {
    starred: pendingStar ?? isStarred,
    pending: mutation.isPending,
    toggle: () => mutation.mutate(!(pendingStar ?? isStarred)),
    star: () => mutation.mutate(true),
    unstar: () => mutation.mutate(false),
  };
}

/** For lists (the file browser's menus): whether an item is starred, and a toggle by kind and id. */
export function useStarToggle() {
  const client = useQueryClient();
  const starred = useQuery(starredQueryOptions());
  const isStarred = (kind: 'file' | 'folder', id: string) =>
    starred.data?.items.some((item) => item.id === id && item.kind === kind) ?? false;
  const mutation = useMutation({
    mutationFn: ({ kind, id, star }: { kind: 'file' | 'folder'; id: string; star: boolean }) =>
      call(star ? ENDPOINTS.home.star : ENDPOINTS.home.unstar, { params: { kind, id } }),
    onSuccess: (_result, { star }) => showToast('success', star ? 'Starred.' : 'Removed from Starred.'),
    onError: (error) => showToast('error', errorText(error) ?? 'Could not change the star.'),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.home.all() }),
  });
  return {
    isStarred,
    toggle: (kind: 'file' | 'folder', id: string) => mutation.mutate({ kind, id, star: !isStarred(kind, id) }),
  };
}

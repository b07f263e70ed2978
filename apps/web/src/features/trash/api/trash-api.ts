import { EmptyTrashResponse, PurgeTrashItemResponse, TrashList } from '@atrium/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { restoreFromTrash, trashKey, useTrashInvalidation } from '../../../lib/trash';

const enc = encodeURIComponent;

/** GET /api/trash: the caller's trash and that of the workspaces they may delete in. */
export const useTrash = () => useQuery({ queryKey: trashKey, queryFn: () => api.get(TrashList, '/api/trash') });

export function useRestore() {
  const invalidate = useTrashInvalidation();
  return useMutation({ mutationFn: restoreFromTrash, onSettled: invalidate });
}

export function usePurge() {
  const invalidate = useTrashInvalidation();
  return useMutation({
    mutationFn: (id: string) => api.delete(PurgeTrashItemResponse, `/api/trash/${enc(id)}`),
    onSettled: invalidate,
  });
}

/** Empties the personal trash (no `workspaceId`) or a workspace's. */
export function useEmptyTrash() {
  const invalidate = useTrashInvalidation();
  return useMutation({
    mutationFn: (workspaceId: string | null) =>
      api.delete(EmptyTrashResponse, `/api/trash${workspaceId === null ? '' : `?workspaceId=${enc(workspaceId)}`}`),
    onSettled: invalidate,
  });
}

import { ENDPOINTS } from '@atrium/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { restoreFromTrash, useTrashInvalidation } from '../../../lib/trash';

/** The caller's trash and that of the workspaces they may delete in. */
export const useTrash = () => useQuery({ queryKey: queryKeys.trash(), queryFn: () => call(ENDPOINTS.trash.list) });

export function useRestore() {
  const invalidate = useTrashInvalidation();
  return useMutation({ mutationFn: restoreFromTrash, onSettled: invalidate });
}

export function usePurge() {
  const invalidate = useTrashInvalidation();
  return useMutation({
    mutationFn: (id: string) => call(ENDPOINTS.trash.purge, { params: { id } }),
    onSettled: invalidate,
  });
}

/** Empties the personal trash (no `workspaceId`) or a workspace's. */
export function useEmptyTrash() {
  const invalidate = useTrashInvalidation();
  return useMutation({
    mutationFn: (workspaceId: string | null) => call(ENDPOINTS.trash.empty, { query: { workspaceId } }),
    onSettled: invalidate,
  });
}

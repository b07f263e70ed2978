import { ENDPOINTS } from '@atrium/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const filesQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: queryKeys.files.list(userId),
    queryFn: () => call(ENDPOINTS.files.list, { params: { userId } }),
  });

export { useFileStats } from '../../../lib/queries/file-stats';

export const useFiles = (userId: string | undefined) =>
  useQuery({ ...filesQueryOptions(userId ?? ''), enabled: Boolean(userId) });

/** GET /api/files/{id}: existence check and metadata. */
export const getFile = (id: string) => call(ENDPOINTS.files.file, { params: { id } });

export const deleteFile = (id: string) => call(ENDPOINTS.files.delete, { params: { id } });

/** Deletes a file and reloads every files query (list, stats). */
export function useDeleteFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.files.all() }),
  });
}

export type { UploadProgress } from '../../../lib/http';

/** The upload's cancel button was pressed. */
export { RequestCancelledError as UploadCancelledError } from '../../../lib/http';

/** What background analysis found; polled while the analysis is pending or running. */
export const useFileInsights = (id: string) =>
  useQuery({
    queryKey: queryKeys.files.insights(id),
    queryFn: () => call(ENDPOINTS.analysis.insights, { params: { id } }),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'pending' || status === 'running' ? 1500 : false;
    },
  });

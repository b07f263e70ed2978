import { AiModelRecord, ENDPOINTS, type AiModelRole } from '@atrium/contracts';
import { endpointPath } from '@atrium/contracts/endpoint';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';
import { postWithProgress, type UploadProgress } from '../../../lib/http';

// The AI settings screen's models (/api/admin/ai/models, docs/PRODUCT.md#ai-models).
const E = ENDPOINTS.aiModels;
const aiModelsKey = ['admin', 'ai-models'] as const;

export const aiModelsQueryOptions = () => queryOptions({ queryKey: aiModelsKey, queryFn: () => call(E.list) });

export const useAiModels = () => useQuery(aiModelsQueryOptions());

/** Uploads a .gguf (multipart, with progress); answers the stored model. */
export async function uploadAiModel(
  file: File,
  options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
) {
  const body = new FormData();
  body.append('file', file, file.name);
  const text = await postWithProgress(endpointPath(E.upload), body, {
    totalBytes: file.size,
    onProgress: options.onProgress,
    signal: options.signal,
  });
  return AiModelRecord.parse(JSON.parse(text));
}

export function useUploadAiModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, onProgress, signal }: { file: File } & Parameters<typeof uploadAiModel>[1]) =>
      uploadAiModel(file, { onProgress, signal }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: aiModelsKey }),
  });
}

export function useSelectAiModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: AiModelRole | null }) =>
      call(E.select, { params: { id }, body: { role } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: aiModelsKey }),
  });
}

export function useDeleteAiModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(E.remove, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: aiModelsKey }),
  });
}

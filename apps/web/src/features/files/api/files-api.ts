import {
  DeleteFileResponse,
  ErrorResponse,
  FileList,
  FileRecord,
  UploadFileResponse,
  UserFileStats,
} from '@atrium/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';

const enc = encodeURIComponent;

export const filesKeys = {
  all: ['files'] as const,
  list: (userId: string) => ['files', 'list', userId] as const,
  stats: (userId: string) => ['files', 'stats', userId] as const,
};

export const filesQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: filesKeys.list(userId),
    queryFn: () => api.get(FileList, `/api/files/user/${enc(userId)}`),
  });

export const fileStatsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: filesKeys.stats(userId),
    queryFn: () => api.get(UserFileStats, `/api/files/user-stats/${enc(userId)}`),
  });

export const useFiles = (userId: string | undefined) =>
  useQuery({ ...filesQueryOptions(userId ?? ''), enabled: Boolean(userId) });

export const useFileStats = (userId: string | undefined) =>
  useQuery({ ...fileStatsQueryOptions(userId ?? ''), enabled: Boolean(userId) });

/** GET /api/files/{id}: existence check and metadata. */
export const getFile = (id: string) => api.get(FileRecord, `/api/files/${enc(id)}`);

export const deleteFile = (id: string) => api.delete(DeleteFileResponse, `/api/files/user/${enc(id)}`);

/** Deletes a file and reloads every files query (list, stats). */
export function useDeleteFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
    onSettled: () => client.invalidateQueries({ queryKey: filesKeys.all }),
  });
}

export const downloadUrl = (id: string, inline = false) => `/api/files/download/${enc(id)}${inline ? '?inline=1' : ''}`;
export const thumbnailUrl = (id: string) => `/api/files/${enc(id)}/thumbnail`;

export interface UploadProgress {
  loaded: number;
  total: number;
  /** Bytes per second, averaged since the start. */
  bytesPerSecond: number;
}

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

export class UploadCancelledError extends Error {
  constructor() {
    super('Upload cancelled.');
    this.name = 'UploadCancelledError';
  }
}

function errorFromXhr(xhr: XMLHttpRequest): ApiError {
  try {
    const parsed = ErrorResponse.safeParse(JSON.parse(xhr.responseText));
    if (parsed.success) return new ApiError(xhr.status, parsed.data.error.code, parsed.data.error.message);
  } catch {
    // not JSON
  }
  return new ApiError(xhr.status, 'HTTP_ERROR', `Upload failed with status ${xhr.status}`);
}

/**
 * POST /api/files/upload as multipart with XMLHttpRequest, which (unlike
 * fetch) reports upload progress. Resolves with the stored record.
 */
export function uploadFile(file: File, userId: string, options: UploadOptions = {}): Promise<FileRecord> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const started = performance.now();
    xhr.open('POST', `/api/files/upload?userId=${enc(userId)}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      const seconds = Math.max((performance.now() - started) / 1000, 0.001);
      options.onProgress?.({
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : file.size,
        bytesPerSecond: event.loaded / seconds,
      });
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(UploadFileResponse.parse(JSON.parse(xhr.responseText)));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      } else reject(errorFromXhr(xhr));
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', 'Could not reach the server.'));
    xhr.onabort = () => reject(new UploadCancelledError());
    if (options.signal) {
      if (options.signal.aborted) {
        reject(new UploadCancelledError());
        return;
      }
      options.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    const body = new FormData();
    body.append('file', file, file.name);
    xhr.send(body);
  });
}

import {
  ENDPOINTS,
  RESUMABLE_UPLOAD_THRESHOLD_BYTES,
  type FileRecord,
  UploadFileResponse,
  type UploadConflict,
} from '@atrium/contracts';
import { endpointPath } from '@atrium/contracts/endpoint';
import { call } from './api-client';
import { postWithProgress, RequestCancelledError, type UploadProgress } from './http';

/** Where an upload goes (`POST /api/files/upload?…`, tus metadata): a folder, a workspace's root, a personal space. */
export interface UploadPlacement {
  userId?: string | undefined;
  workspaceId?: string | undefined;
  folderId?: string | undefined;
  /** When the name is taken there: `rename` (the server's default: `name (1).ext`), `replace` (a new version), `fail`. */
  onConflict?: UploadConflict | undefined;
}

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal | undefined;
}

const TUS_ENDPOINT = '/api/files/tus';
const FILE_ID_HEADER = 'x-atrium-file-id';

const placementEntries = (place: UploadPlacement) =>
  Object.entries(place).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '');

/** POST /api/files/upload as multipart with progress; resolves with the stored record. */
export async function uploadMultipart(
  file: File,
  place: UploadPlacement,
  options: UploadOptions = {},
): Promise<FileRecord> {
  const body = new FormData();
  body.append('file', file, file.name);
  const url = endpointPath(ENDPOINTS.files.upload, {}, Object.fromEntries(placementEntries(place)));
  const text = await postWithProgress(url, body, {
    totalBytes: file.size,
    onProgress: options.onProgress,
    signal: options.signal,
  });
  return UploadFileResponse.parse(JSON.parse(text));
}

/**
 * The resumable tus protocol for large files: a dropped connection is retried from the last byte the server
 * has, and a page reload resumes from the fingerprint kept in localStorage.
 */
export async function uploadResumable(
  file: File,
  place: UploadPlacement,
  options: UploadOptions = {},
): Promise<FileRecord> {
  const { Upload } = await import('tus-js-client');
  const started = performance.now();
  return new Promise<FileRecord>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: TUS_ENDPOINT,
      metadata: { filename: file.name, ...Object.fromEntries(placementEntries(place)) },
      retryDelays: [0, 1000, 3000, 5000, 10000],
      removeFingerprintOnSuccess: true,
      onProgress: (loaded, total) => {
        const seconds = Math.max((performance.now() - started) / 1000, 0.001);
        options.onProgress?.({ loaded, total, bytesPerSecond: loaded / seconds });
      },
      onSuccess: (payload) => {
        const id = payload.lastResponse.getHeader(FILE_ID_HEADER);
        if (!id) {
          reject(new Error('The server did not name the stored file.'));
          return;
        }
        call(ENDPOINTS.files.file, { params: { id } }).then(resolve, reject);
      },
      onError: (error) => reject(error),
    });
    options.signal?.addEventListener(
      'abort',
      () => {
        void upload.abort(true).finally(() => reject(new RequestCancelledError()));
      },
      { once: true },
    );
    void upload.findPreviousUploads().then((previous) => {
      const last = previous[0];
      if (last) upload.resumeFromPreviousUpload(last);
      upload.start();
    });
  });
}

/** Uploads a file into `place`: multipart with progress below the threshold, resumable (tus) above it. */
export function uploadTo(file: File, place: UploadPlacement, options: UploadOptions = {}): Promise<FileRecord> {
  return file.size >= RESUMABLE_UPLOAD_THRESHOLD_BYTES
    ? uploadResumable(file, place, options)
    : uploadMultipart(file, place, options);
}

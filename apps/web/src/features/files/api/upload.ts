import { RESUMABLE_UPLOAD_THRESHOLD_BYTES, type FileRecord } from '@atrium/contracts';
import { getFile, uploadFile, UploadCancelledError, type UploadOptions } from './files-api';

const TUS_ENDPOINT = '/api/files/tus';
const FILE_ID_HEADER = 'x-atrium-file-id';

/**
 * Large files go through the resumable tus protocol: a dropped connection is
 * retried from the last byte the server has, and a page reload resumes from
 * the fingerprint kept in localStorage.
 */
async function uploadResumable(file: File, userId: string, options: UploadOptions): Promise<FileRecord> {
  const { Upload } = await import('tus-js-client');
  const started = performance.now();
  return new Promise<FileRecord>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: TUS_ENDPOINT,
      metadata: { filename: file.name, userId },
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
        getFile(id).then(resolve, reject);
      },
      onError: (error) => reject(error),
    });
    options.signal?.addEventListener(
      'abort',
      () => {
        void upload.abort(true).finally(() => reject(new UploadCancelledError()));
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

/** Uploads a file: multipart with progress below the threshold, resumable (tus) above it. */
export function uploadAnyFile(file: File, userId: string, options: UploadOptions = {}): Promise<FileRecord> {
  return file.size >= RESUMABLE_UPLOAD_THRESHOLD_BYTES
    ? uploadResumable(file, userId, options)
    : uploadFile(file, userId, options);
}

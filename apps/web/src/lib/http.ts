// The web's one way to talk HTTP: features call these (or api-client.ts, which adds schemas) and never fetch or
// XMLHttpRequest themselves (lint forbids it). zod-free, so public pages can use them.
import { NETWORK_ERROR_MESSAGE } from '@atrium/contracts/texts';
import { ApiError, apiErrorFrom } from './api-error';
import { reportSessionEnded } from './session-end';

/** A 401 `UNAUTHENTICATED` of an `/api/` route ends the page's session (lib/session-end.ts); answers the error. */
function failed(url: string, error: ApiError): ApiError {
  if (error.status === 401 && error.code === 'UNAUTHENTICATED' && isSessionApi(url)) reportSessionEnded(error.reason);
  return error;
}

/** The signed-in API (not the public pages' `/public/api/`), whatever the origin written in front. */
const isSessionApi = (url: string): boolean => {
  try {
    return new URL(url, window.location.href).pathname.startsWith('/api/');
  } catch {
    return false;
  }
};

/** fetch with the session cookie; a request that cannot reach the server rejects with `NETWORK_ERROR`. */
export async function send(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { credentials: 'same-origin', ...init });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ApiError(0, 'NETWORK_ERROR', NETWORK_ERROR_MESSAGE);
  }
}

/** `send`, and a failed answer (not 2xx) rejects with the `ApiError` its body describes. */
export async function sendOk(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await send(url, init);
  if (!response.ok) throw failed(url, apiErrorFrom(response.status, await response.text().catch(() => '')));
  return response;
}

/** A request the caller cancelled (an upload's cancel button). */
export class RequestCancelledError extends Error {
  constructor(message = 'Upload cancelled.') {
    super(message);
    this.name = 'RequestCancelledError';
  }
}

export interface UploadProgress {
  loaded: number;
  total: number;
  bytesPerSecond: number;
}

/**
 * POSTs a form with XMLHttpRequest, which (unlike fetch) reports upload progress; resolves with the answer's text.
 * Failures reject with the `ApiError` of the answer, `NETWORK_ERROR`, or `RequestCancelledError` on abort.
 */
export function postWithProgress(
  url: string,
  body: FormData,
  options: { totalBytes: number; onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal | undefined },
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new RequestCancelledError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const started = performance.now();
    xhr.open('POST', url);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      const seconds = Math.max((performance.now() - started) / 1000, 0.001);
      options.onProgress?.({
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : options.totalBytes,
        bytesPerSecond: event.loaded / seconds,
      });
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.responseText);
      else reject(failed(url, apiErrorFrom(xhr.status, xhr.responseText, `Upload failed with status ${xhr.status}`)));
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK_ERROR', NETWORK_ERROR_MESSAGE));
    xhr.onabort = () => reject(new RequestCancelledError());
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

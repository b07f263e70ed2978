// The public link page's HTTP calls: zod-free (lib/http.ts, and the endpoints' paths from
// `@atrium/contracts/public-endpoints`), so the page loads no schema code.
import type { PublicLink } from '@atrium/contracts';
import { endpointPath } from '@atrium/contracts/endpoint';
import { PUBLIC_ENDPOINTS } from '@atrium/contracts/public-endpoints';
import { apiErrorFrom } from '../../../lib/api-error';
import { postWithProgress, send, sendOk, type UploadProgress } from '../../../lib/http';

const E = PUBLIC_ENDPOINTS.publicLinks;

/**
 * GET /api/public/links/{token}[?folderId=&cursor=]: a file's details, or one page of a folder (the link's, or one
 * below it). Rejects with the ApiError of a 401 (locked), 404 or 410 answer.
 */
export async function getPublicLink(
  token: string,
  where: { folderId?: string | undefined; cursor?: string | undefined } = {},
  signal?: AbortSignal,
): Promise<PublicLink> {
  const url = endpointPath(E.link, { token }, { folderId: where.folderId, cursor: where.cursor });
  const response = await sendOk(url, { method: E.link.method, headers: { accept: 'application/json' }, signal });
  return (await response.json()) as PublicLink;
}

/** POST …/unlock `{ password }`: the server sets a cookie for this link; a wrong password rejects (401). */
export async function unlockLink(token: string, password: string): Promise<void> {
  const response = await send(endpointPath(E.unlock, { token }), {
    method: E.unlock.method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ password }),
  });
  if (!response.ok) throw apiErrorFrom(response.status, await response.text().catch(() => ''));
}

/** POST …/upload (multipart): one file into a file-drop link's folder. */
export async function uploadToLink(
  token: string,
  file: File,
  options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<void> {
  const body = new FormData();
  body.append('file', file, file.name);
  await postWithProgress(endpointPath(E.upload, { token }), body, {
    totalBytes: file.size,
    onProgress: options.onProgress,
    signal: options.signal,
  });
}

export const publicLinkUrls = {
  /** A file link's bytes (Range, ETag); `inline` for previews. */
  download: (token: string, inline = false) => endpointPath(E.download, { token }, inline ? { inline: 1 } : {}),
  /** One file of a folder link. */
  folderFile: (token: string, fileId: string, inline = false) =>
    endpointPath(E.fileDownload, { token, fileId }, inline ? { inline: 1 } : {}),
  /** The whole folder as a streamed zip. */
  zip: (token: string) => endpointPath(E.zip, { token }),
};

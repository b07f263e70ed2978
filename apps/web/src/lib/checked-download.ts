// A download that checks before the browser takes over (docs/PRODUCT.md#stale-downloads): a link used up or revoked,
// a share withdrawn, answers in the page instead of a download the browser cancels without a word. zod-free.
import type { MouseEvent } from 'react';
import { apiErrorFrom } from './api-error';
import { send } from './http';

/**
 * Asks the server (HEAD: no bytes, and no download counted) whether `url` would be served; if not, rejects with the
 * server's message (read from a one-byte GET, which a refused address refuses alike). If it would, hands the address
 * to the browser as a download named `fileName`.
 */
export async function checkedDownload(url: string, fileName: string): Promise<void> {
  const head = await send(url, { method: 'HEAD' });
  if (!head.ok) {
    const answer = await send(url, { headers: { range: 'bytes=0-0' } });
    if (!answer.ok) throw apiErrorFrom(answer.status, await answer.text().catch(() => ''));
  }
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

/**
 * An `onClick` for a download link (`<a href download>`): the browser's own download is held back until the server
 * said yes; `onFailed` hears the error (show its message, refresh what changed). A modified click (new tab) is left alone.
 */
export const checkedDownloadClick =
  (fileName: string, onFailed: (error: unknown) => void) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    const url = event.currentTarget.getAttribute('href') ?? event.currentTarget.href;
    checkedDownload(url, fileName).catch(onFailed);
  };

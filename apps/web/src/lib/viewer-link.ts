// The in-app file viewer opens over any signed-in page whose address carries `?file=<id>`, so Back, refresh and a
// pasted link work (docs/PRODUCT.md#file-viewer).

/** The query parameter that names the file the viewer shows. */
export const VIEWER_PARAM = 'file';

/** The address of `pathname` (with its other parameters kept) with the viewer open on `fileId`. */
export function viewerHref(fileId: string, pathname: string, search = ''): string {
  const params = new URLSearchParams(search);
  params.set(VIEWER_PARAM, fileId);
  return `${pathname}?${params.toString()}`;
}

/** The same address with the viewer closed. */
export function withoutViewer(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete(VIEWER_PARAM);
  const rest = params.toString();
  return rest ? `${pathname}?${rest}` : pathname;
}

/**
 * The history state of an address the app opened the viewer with (a click on a file): closing the viewer then goes
 * Back, so Back after Esc does not reopen it. A pasted or reloaded address has no such state: closing replaces it.
 */
export const VIEWER_OPENED_STATE = { viewerOpened: true } as const;

/** Whether the viewer at this history entry was opened by the app (`VIEWER_OPENED_STATE`). */
export const openedInApp = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && (state as { viewerOpened?: unknown }).viewerOpened === true;

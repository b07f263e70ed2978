// The in-app file viewer opens over any signed-in page whose address carries `?file=<id>`, so Back, refresh and a
// pasted link work (docs/PRODUCT.md#file-viewer).

/** The query parameter that names the file the viewer shows. */
export const VIEWER_PARAM = 'file';

/** Where the viewer opens a PDF (`&page=<n>`) or starts a recording (`&t=<seconds>`): a citation's place. */
export const VIEWER_PAGE_PARAM = 'page';
export const VIEWER_TIME_PARAM = 't';

/** A place in a file: its PDF page or a moment of a recording. */
export interface ViewerPlace {
  page?: number | undefined;
  startSeconds?: number | undefined;
}

/**
 * The address of `pathname` (with its other parameters kept) with the viewer open on `fileId`, at `place` when
 * given (a previous place is dropped).
 */
export function viewerHref(fileId: string, pathname: string, search = '', place: ViewerPlace = {}): string {
  const params = new URLSearchParams(search);
  params.set(VIEWER_PARAM, fileId);
  params.delete(VIEWER_PAGE_PARAM);
  params.delete(VIEWER_TIME_PARAM);
  if (place.page !== undefined) params.set(VIEWER_PAGE_PARAM, String(place.page));
  if (place.startSeconds !== undefined) params.set(VIEWER_TIME_PARAM, String(Math.floor(place.startSeconds)));
  return `${pathname}?${params.toString()}`;
}

/** The place the address opens the viewer at (`&page=` / `&t=`), ignoring values that are not numbers. */
export function viewerPlaceOf(search: string): ViewerPlace {
  const params = new URLSearchParams(search);
  const number = (name: string, min: number) => {
    const value = Number(params.get(name) ?? Number.NaN);
    return Number.isFinite(value) && value >= min ? Math.floor(value) : undefined;
  };
  return { page: number(VIEWER_PAGE_PARAM, 1), startSeconds: number(VIEWER_TIME_PARAM, 0) };
}

/** The same address with the viewer closed. */
export function withoutViewer(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete(VIEWER_PARAM);
  params.delete(VIEWER_PAGE_PARAM);
  params.delete(VIEWER_TIME_PARAM);
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

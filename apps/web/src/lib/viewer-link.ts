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

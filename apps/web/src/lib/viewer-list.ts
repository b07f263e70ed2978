// The list the file viewer steps through with Previous / Next (docs/PRODUCT.md#file-viewer): a screen that opens the
// viewer from a list of its own (search results, Shared with me) names that list here as it opens it; otherwise, or
// when the file is not in the list (a pasted link), the viewer steps through the file's folder.

export interface ViewerListItem {
  id: string;
  name: string;
}

let remembered: readonly ViewerListItem[] = [];

/** The files the viewer steps through when it is opened on one of them. */
export function rememberViewerList(items: readonly ViewerListItem[]): void {
  remembered = items.slice();
}

/** The remembered list, when it holds `fileId`; else null (then the viewer uses the file's folder). */
export function viewerListFor(fileId: string): readonly ViewerListItem[] | null {
  return remembered.some((item) => item.id === fileId) ? remembered : null;
}

/** The neighbours of `fileId` in `items`, and its place ("3 of 12"). */
export function neighbours(items: readonly ViewerListItem[], fileId: string) {
  const index = items.findIndex((item) => item.id === fileId);
  if (index < 0) return { previous: undefined, next: undefined, position: undefined };
  return {
    previous: items[index - 1],
    next: items[index + 1],
    position: items.length > 1 ? `${index + 1} of ${items.length}` : undefined,
  };
}

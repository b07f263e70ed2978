import type { SearchResult } from '@atrium/contracts';
import { folderHref, PAGES } from '@atrium/contracts/pages';
import { downloadUrl } from './file-urls';

// Where search results open: shared by the search screens and the assistant, which answers with them
// (docs/PRODUCT.md#assistant-file-commands).

/** The search page, with its text. */
export const searchPagePath = (q: string) => `${PAGES.search.path}?q=${encodeURIComponent(q.trim())}`;

// Personal folders, and folders of others reached through a share, open on the personal route (which reads shares).
const folderRoute = (result: SearchResult, folderId: string) =>
  folderHref(result.location.spaceKind === 'workspace' ? result.location.spaceId : null, folderId);

/**
 * Where a result opens: a folder opens itself; a file opens the folder that holds it with its row selected and
 * scrolled to (`?select=<fileId>`, docs/PRODUCT.md#spaces-screens); a file shared on its own (no folder the caller
 * may open) opens its bytes in a new tab (the private download route, which shares pass).
 */
export function resultTarget(result: SearchResult): { href: string; external: boolean } {
  if (result.kind === 'folder') return { href: folderRoute(result, result.id), external: false };
  if (result.location.folderId) {
    const select = `?select=${encodeURIComponent(result.id)}`;
    return { href: `${folderRoute(result, result.location.folderId)}${select}`, external: false };
  }
  return { href: downloadUrl(result.id), external: true };
}

/** "Personal › Reports › 2026": the space and the folders down to the result's. */
export function locationText(result: SearchResult): string {
  const { spaceName, spaceKind, path } = result.location;
  // The first crumb of an own space is its root, named after the space.
  const folders = spaceKind === 'shared' ? path : path.slice(1);
  return [spaceName, ...folders.map((crumb) => crumb.name)].join(' › ');
}

import { folderHref } from '@atrium/contracts/pages';

/**
 * Where "Open" on a shared folder leads: the spaces file browser's folder route. A folder of another person's
 * space opens there too (the browser reads it through the share, as a viewer unless the server says more).
 */
export const folderRoute = (folderId: string) => folderHref(null, folderId);

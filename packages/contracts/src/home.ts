import { z } from 'zod';
import { endpoint } from './endpoint';
import { MemberRole } from './workspaces';

/** Most files one page of Recent holds; the home shows the first `HOME_RECENT_COUNT`. */
export const RECENT_PAGE_MAX = 100;
export const HOME_RECENT_COUNT = 8;
/** Most starred items `GET /api/starred` answers (newest star first). */
export const STARRED_MAX = 500;

/** Where an item is, for a link to its folder (docs/PRODUCT.md#starred-and-recent). */
export const ItemPlace = z
  .object({
    spaceKind: z.enum(['personal', 'workspace', 'shared']).describe('`shared`: reached only through a share'),
    spaceId: z.string().nullable().describe('The workspace id; null for the personal space and shared items'),
    spaceName: z.string(),
    folderId: z.string().nullable().describe('The folder holding it, when the caller can open that folder'),
  })
  .meta({ id: 'ItemPlace' });
export type ItemPlace = z.infer<typeof ItemPlace>;

/** A file or folder in Starred, Recent or the home. */
export const HomeItem = z
  .object({
    kind: z.enum(['file', 'folder']),
    id: z.string(),
    name: z.string(),
    contentType: z.string().nullable().describe('Null for a folder'),
    size: z.number().int().nonnegative().nullable().describe('Bytes; null for a folder'),
    updatedAt: z.string().describe('ISO-8601: when its current content was stored (a folder: when it was made)'),
    place: ItemPlace,
    starred: z.boolean(),
  })
  .meta({ id: 'HomeItem' });
export type HomeItem = z.infer<typeof HomeItem>;

export const RecentQuery = z.object({
  cursor: z.string().max(400).optional().describe('`nextCursor` of the previous page'),
  limit: z.coerce.number().int().min(1).max(RECENT_PAGE_MAX).default(30),
});
export type RecentQuery = z.infer<typeof RecentQuery>;

/** GET /api/recent: files I can read, newest content first. */
export const RecentPage = z
  .object({ items: z.array(HomeItem), nextCursor: z.string().nullable() })
  .meta({ id: 'RecentPage' });
export type RecentPage = z.infer<typeof RecentPage>;

/** GET /api/starred: what I starred and can still read, out of the trash, newest star first. */
export const StarredList = z
  .object({ items: z.array(HomeItem.extend({ starredAt: z.string() })) })
  .meta({ id: 'StarredList' });
export type StarredList = z.infer<typeof StarredList>;

export const StarParams = z.object({ kind: z.enum(['file', 'folder']), id: z.string().min(1).max(200) });
export type StarParams = z.infer<typeof StarParams>;
export const StarResult = z
  .object({ kind: z.enum(['file', 'folder']), id: z.string(), starred: z.boolean() })
  .meta({ id: 'StarResult' });
export type StarResult = z.infer<typeof StarResult>;

/** GET /api/home: the dashboard home of a team member (docs/PRODUCT.md#dashboard-home). */
export const HomeSummary = z
  .object({
    counts: z
      .object({
        files: z.number().int().nonnegative(),
        bytes: z.number().int().nonnegative(),
        workspaces: z.number().int().nonnegative(),
        sharedWithMe: z.number().int().nonnegative(),
        starred: z.number().int().nonnegative(),
      })
      .describe('Files (and their bytes) I can read in every space, out of the trash; shares reaching me'),
    recent: z.array(HomeItem).describe(`The ${HOME_RECENT_COUNT} newest files I can read`),
    workspaces: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        role: MemberRole,
        rootFolderId: z.string(),
        usedBytes: z.number().int().nonnegative(),
        files: z.number().int().nonnegative(),
      }),
    ),
    sharedLately: z
      .array(
        z.object({
          kind: z.enum(['file', 'folder']),
          id: z.string(),
          name: z.string(),
          role: z.enum(['viewer', 'editor']),
          sharedBy: z.string().describe('Display name of who shared it'),
          sharedAt: z.string(),
          folderId: z
            .string()
            .nullable()
            .describe('The shared folder, or the folder holding a shared file when readable'),
        }),
      )
      .describe('The newest shares reaching me, at most 6'),
  })
  .meta({ id: 'HomeSummary' });
export type HomeSummary = z.infer<typeof HomeSummary>;

/** The home, starred and recent endpoints (`ENDPOINTS.home`). */
export const homeEndpoints = {
  summary: endpoint({ method: 'GET', path: '/api/home', response: HomeSummary }),
  recent: endpoint({ method: 'GET', path: '/api/recent', query: RecentQuery, response: RecentPage }),
  starred: endpoint({ method: 'GET', path: '/api/starred', response: StarredList }),
  star: endpoint({ method: 'PUT', path: '/api/stars/:kind/:id', params: StarParams, response: StarResult }),
  unstar: endpoint({ method: 'DELETE', path: '/api/stars/:kind/:id', params: StarParams, response: StarResult }),
} as const;

import { z } from 'zod';
import { AuditAction } from './admin';
import { endpoint } from './endpoint';
import { FolderIdParams, WorkspaceIdParams } from './workspaces';

/** Most entries one page of an activity feed holds. */
export const ACTIVITY_PAGE_MAX = 100;

/**
 * What kind of change an entry is (docs/PRODUCT.md#activity), the feed's type filter: each groups audited actions.
 * `share` entries (shares and public links) are seen only by who may share the item.
 */
export const ACTIVITY_TYPES = {
  uploaded: ['file.uploaded'],
  replaced: ['file.version_added', 'file.version_restored'],
  renamed: ['file.renamed', 'folder.renamed'],
  moved: ['file.moved', 'folder.moved'],
  shared: ['share.created', 'share.revoked', 'link.created', 'link.revoked'],
  deleted: ['file.deleted', 'file.purged'],
  restored: ['file.restored'],
} as const satisfies Record<string, readonly AuditAction[]>;
export const ActivityType = z.enum(Object.keys(ACTIVITY_TYPES) as [keyof typeof ACTIVITY_TYPES]);
export type ActivityType = z.infer<typeof ActivityType>;

/** The type of an audited action, if the feed shows it. */
export function activityTypeOf(action: string): ActivityType | undefined {
  for (const [type, actions] of Object.entries(ACTIVITY_TYPES)) {
    if ((actions as readonly string[]).includes(action)) return type as ActivityType;
  }
  return undefined;
}

/** A person who acted. */
export const ActivityActor = z.object({ id: z.string(), name: z.string() }).meta({ id: 'ActivityActor' });
export type ActivityActor = z.infer<typeof ActivityActor>;

/** One change in a workspace or under a folder, as its members see it. */
export const ActivityEntry = z
  .object({
    id: z.string(),
    at: z.string().describe('ISO-8601'),
    action: AuditAction,
    type: ActivityType,
    actor: ActivityActor.nullable().describe('Who acted, by display name; null: nobody signed in (a file-drop link)'),
    item: z.object({
      kind: z.enum(['file', 'folder']),
      id: z.string(),
      name: z.string().describe('Its name now'),
      folderId: z.string().nullable().describe('The folder that holds it now (for a folder: its parent)'),
      trashed: z.boolean(),
    }),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'ActivityEntry' });
export type ActivityEntry = z.infer<typeof ActivityEntry>;

/** `?cursor&limit&actor&type` of an activity feed. */
export const ActivityQuery = z.object({
  cursor: z.string().max(400).optional().describe('`nextCursor` of the previous page'),
  limit: z.coerce.number().int().min(1).max(ACTIVITY_PAGE_MAX).default(30),
  actor: z.string().trim().min(1).max(200).optional().describe('A user id: only what they did'),
  type: ActivityType.optional(),
});
export type ActivityQuery = z.infer<typeof ActivityQuery>;

/** A page of activity, newest first; `people`: who acted in this feed (for the person filter). */
export const ActivityPage = z
  .object({
    entries: z.array(ActivityEntry),
    nextCursor: z.string().nullable(),
    people: z.array(ActivityActor).describe('Everyone who appears in this feed, by name'),
  })
  .meta({ id: 'ActivityPage' });
export type ActivityPage = z.infer<typeof ActivityPage>;

/** The activity endpoints of the endpoint table (`ENDPOINTS.activity`). */
export const activityEndpoints = {
  workspace: endpoint({
    method: 'GET',
    path: '/api/workspaces/:id/activity',
    params: WorkspaceIdParams,
    query: ActivityQuery,
    response: ActivityPage,
  }),
  folder: endpoint({
    method: 'GET',
    path: '/api/folders/:id/activity',
    params: FolderIdParams,
    query: ActivityQuery,
    response: ActivityPage,
  }),
} as const;

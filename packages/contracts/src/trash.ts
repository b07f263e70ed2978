import { z } from 'zod';
import { endpoint } from './endpoint';

/** One item of the trash: a file or a folder (with what went to the trash with it) deleted by someone. */
export const TrashItem = z
  .object({
    id: z.string().describe('The file or folder id (the same id it had before; restore and purge take it)'),
    kind: z.enum(['file', 'folder']),
    name: z.string(),
    size: z.number().int().nonnegative().describe('Bytes: the file, or the files that went with the folder'),
    contentType: z.string().nullable().describe('A file’s type; null for a folder'),
    fileCount: z.number().int().nonnegative().describe('1 for a file; the files that went with a folder'),
    workspaceId: z.string().nullable().describe('null: the caller’s personal space'),
    workspaceName: z.string().nullable(),
    trashedAt: z.string().describe('ISO-8601'),
    trashedBy: z.object({ id: z.string(), name: z.string() }).nullable().describe('null: a deleted account'),
    purgeAt: z.string().describe('ISO-8601: when the scheduled purge removes it for good'),
  })
  .meta({ id: 'TrashItem' });
export type TrashItem = z.infer<typeof TrashItem>;

/** GET /api/trash: the caller's personal trash and that of each workspace they may delete in, newest first. */
export const TrashList = z
  .object({
    items: z.array(TrashItem),
    retentionDays: z.number().int().positive(),
  })
  .meta({ id: 'TrashList' });
export type TrashList = z.infer<typeof TrashList>;

export const TrashIdParams = z.object({ id: z.string().min(1).max(200) });

/** POST /api/trash/{id}/restore */
export const RestoreTrashResponse = z
  .object({
    id: z.string(),
    kind: z.enum(['file', 'folder']),
    name: z.string().describe('The name it got back (`name (1)` when its own was taken meanwhile)'),
    folderId: z.string().describe('The folder it went back into'),
    toRoot: z.boolean().describe('True when its folder was gone and it went to the root of its space'),
  })
  .meta({ id: 'RestoreTrashResponse' });
export type RestoreTrashResponse = z.infer<typeof RestoreTrashResponse>;

/** DELETE /api/trash/{id} */
export const PurgeTrashItemResponse = z
  .object({ id: z.string(), purged: z.literal(true) })
  .meta({ id: 'PurgeTrashItemResponse' });
export type PurgeTrashItemResponse = z.infer<typeof PurgeTrashItemResponse>;

/** DELETE /api/trash: the caller's personal trash, or with `workspaceId` that workspace's. */
export const EmptyTrashQuery = z.object({ workspaceId: z.string().min(1).max(200).optional() });
export type EmptyTrashQuery = z.infer<typeof EmptyTrashQuery>;

export const EmptyTrashResponse = z
  .object({ purged: z.number().int().nonnegative().describe('Items removed for good') })
  .meta({ id: 'EmptyTrashResponse' });
export type EmptyTrashResponse = z.infer<typeof EmptyTrashResponse>;

/** Messages of the trash (the web app shows them as they are). */
export const TRASH_MESSAGES = {
  notFound: 'This item is not in the trash.',
} as const;

/** The trash endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const trashEndpoints = {
  list: endpoint({ method: 'GET', path: '/api/trash', response: TrashList }),
  restore: endpoint({
    method: 'POST',
    path: '/api/trash/:id/restore',
    params: TrashIdParams,
    response: RestoreTrashResponse,
  }),
  purge: endpoint({
    method: 'DELETE',
    path: '/api/trash/:id',
    params: TrashIdParams,
    response: PurgeTrashItemResponse,
  }),
  empty: endpoint({ method: 'DELETE', path: '/api/trash', query: EmptyTrashQuery, response: EmptyTrashResponse }),
} as const;

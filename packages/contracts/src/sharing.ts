import { z } from 'zod';
import { FileRecord, DownloadQuery } from './files';
import { DirectoryUser, FolderEntry, FolderIdParams } from './workspaces';
import { endpoint } from './endpoint';
import { PUBLIC_ENDPOINTS } from './public-endpoints';

// ---- Shares with people and workspaces ----

/** What a share grants: viewer (read, download) or editor (add, change, delete, share inside). */
export const ShareRole = z.enum(['viewer', 'editor']).meta({ id: 'ShareRole' });
export type ShareRole = z.infer<typeof ShareRole>;

/** PUT /api/files/{id}/shares/{userId}, PUT /api/folders/{id}/shares/{userId} (and the workspace variants). */
export const SetShareRequest = z.object({ role: ShareRole }).meta({ id: 'SetShareRequest' });
export type SetShareRequest = z.infer<typeof SetShareRequest>;

export const ShareUserParams = z.object({
  id: z.string().min(1).max(200),
  userId: z.string().min(1).max(320).describe("The recipient's owner key"),
});
export const ShareWorkspaceParams = z.object({
  id: z.string().min(1).max(200),
  workspaceId: z.string().min(1).max(200),
});

/** One grant on a file or folder, as its owner (and anyone who may share it) sees it. */
export const Share = z
  .object({
    id: z.string(),
    role: ShareRole,
    grantee: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('user'), user: DirectoryUser }),
      z.object({ kind: z.literal('workspace'), id: z.string(), name: z.string() }),
    ]),
    createdAt: z.string().describe('ISO-8601'),
    createdBy: z.string().nullable().describe("The sharer's display name"),
  })
  .meta({ id: 'Share' });
export type Share = z.infer<typeof Share>;

/** GET /api/files/{id}/shares, GET /api/folders/{id}/shares: who has access. */
export const ShareList = z
  .object({
    owner: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('user'), user: DirectoryUser }),
      z.object({ kind: z.literal('workspace'), id: z.string(), name: z.string() }),
    ]),
    shares: z.array(Share),
  })
  .meta({ id: 'ShareList' });
export type ShareList = z.infer<typeof ShareList>;

export const RevokeShareResponse = z
  .object({ id: z.string(), revoked: z.literal(true) })
  .meta({ id: 'RevokeShareResponse' });
export type RevokeShareResponse = z.infer<typeof RevokeShareResponse>;

/** GET /api/shared-with-me: what others shared with the caller (directly or through a workspace), newest first. */
export const SharedWithMe = z
  .object({
    files: z.array(
      FileRecord.extend({
        role: ShareRole,
        sharedBy: z.string().nullable(),
        sharedAt: z.string(),
      }),
    ),
    folders: z.array(
      FolderEntry.extend({
        role: ShareRole,
        sharedBy: z.string().nullable(),
        sharedAt: z.string(),
      }),
    ),
  })
  .meta({ id: 'SharedWithMe' });
export type SharedWithMe = z.infer<typeof SharedWithMe>;

/** The notification a recipient gets: "Alice shared budget.xlsx with you". */
export const sharedWithYouMessage = (sharer: string, name: string): string => `${sharer} shared ${name} with you`;

/** What the server answers when a share is refused or missing (the share dialog shows these). */
export const SHARE_TEXTS = {
  yourself: 'You cannot share with yourself.',
  ownerAlready: 'That person owns this already.',
  ownWorkspace: 'This is in that workspace already: its members have access through their role.',
  noShare: 'There is no such share on this item.',
} as const;

// ---- Public links ----

/** Longest password a link accepts. */
export const LINK_PASSWORD_MAX = 200;

/** POST /api/links: for a file or a folder; `allowUpload` (folders only) makes a file-drop link. */
export const CreateLinkRequest = z
  .object({
    fileId: z.string().min(1).max(200).optional(),
    folderId: z.string().min(1).max(200).optional(),
    expiresAt: z.iso.datetime({ offset: true, message: 'expiresAt must be an ISO-8601 date and time.' }).optional(),
    password: z
      .string()
      .min(1, 'A password cannot be empty.')
      .max(LINK_PASSWORD_MAX, `A password can be at most ${LINK_PASSWORD_MAX} characters.`)
      .optional(),
    maxDownloads: z.number().int().min(1).max(1_000_000).optional(),
    allowUpload: z.boolean().optional(),
  })
  .refine((value) => (value.fileId === undefined) !== (value.folderId === undefined), {
    message: 'Send a fileId or a folderId (one of them).',
  })
  .meta({ id: 'CreateLinkRequest' });
export type CreateLinkRequest = z.infer<typeof CreateLinkRequest>;

/** A link as its owner sees it (GET /api/links, POST /api/links answers it with `token` and `url`). */
export const Link = z
  .object({
    id: z.string(),
    token: z.string().describe('At least 128 bits of randomness, base64url'),
    url: z.string().describe('/s/{token}'),
    fileId: z.string().nullable(),
    folderId: z.string().nullable(),
    expiresAt: z.string().nullable(),
    hasPassword: z.boolean(),
    maxDownloads: z.number().int().nullable(),
    downloads: z.number().int().nonnegative(),
    allowUpload: z.boolean(),
    received: z
      .object({
        count: z.number().int().nonnegative().describe('Files stored through the link (not those in the trash)'),
        recent: z
          .array(
            z.object({
              fileId: z.string(),
              name: z.string().describe('The name the file was stored under'),
              at: z.string().describe('When it arrived (ISO 8601)'),
            }),
          )
          .max(5)
          .describe('The newest arrivals, newest first (at most 5)'),
      })
      .nullable()
      .optional()
      .describe('What arrived through a file-drop link (allowUpload); null or absent for other links'),
    createdAt: z.string(),
    createdBy: z.string().nullable(),
    suspended: z
      .boolean()
      .describe(
        'Its maker may no longer share the file or folder (removed, role lowered, share revoked): it answers like a revoked link until they may again',
      ),
  })
  .meta({ id: 'Link' });
export type Link = z.infer<typeof Link>;

export const LinkList = z.array(Link).meta({ id: 'LinkList' });
export type LinkList = z.infer<typeof LinkList>;

export const LinkListQuery = z
  .object({ fileId: z.string().min(1).max(200).optional(), folderId: z.string().min(1).max(200).optional() })
  .refine((value) => (value.fileId === undefined) !== (value.folderId === undefined), {
    message: 'Send a fileId or a folderId (one of them).',
  });

export const LinkIdParams = z.object({ id: z.string().min(1).max(200) });
export const LinkTokenParams = z.object({ token: z.string().min(1).max(200) });

export const RevokeLinkResponse = z
  .object({ id: z.string(), revoked: z.literal(true) })
  .meta({ id: 'RevokeLinkResponse' });
export type RevokeLinkResponse = z.infer<typeof RevokeLinkResponse>;

/**
 * GET /api/public/links/{token}?folderId=&cursor=&limit=: which folder of a folder link to list (default: the link's
 * folder; any folder below it) and the page (folders first, then files, by name).
 */
export const PublicLinkQuery = z.object({
  folderId: z.string().min(1).max(200).optional(),
  cursor: z.string().max(2000).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type PublicLinkQuery = z.infer<typeof PublicLinkQuery>;

export const PublicLinkFileParams = z.object({ token: z.string().min(1).max(200), fileId: z.string().min(1).max(200) });

/** GET /api/public/links/{token}: what the public page shows (before unlocking: only `locked` and `kind`). */
export const PublicLink = z
  .object({
    kind: z.enum(['file', 'folder']),
    locked: z.boolean().describe('True while a password is needed'),
    allowUpload: z.boolean(),
    expiresAt: z.string().nullable(),
    file: FileRecord.pick({ fileName: true, size: true, contentType: true, uploadDate: true }).optional(),
    folder: z
      .object({
        id: z.string().describe("The folder listed (the link's folder or one below it, as asked)"),
        name: z.string(),
        path: z
          .array(z.object({ id: z.string(), name: z.string() }))
          .describe("Breadcrumbs from the link's folder down to this one (never above the link's folder)"),
        nextCursor: z.string().nullable().describe('The next page (`?cursor=`), null on the last page'),
        files: z.array(FileRecord.pick({ id: true, fileName: true, size: true, contentType: true, uploadDate: true })),
        folders: z.array(z.object({ id: z.string(), name: z.string() })),
      })
      .optional()
      .describe('Absent for a file-drop link: its uploaders cannot list the folder'),
    sharedBy: z
      .string()
      .optional()
      .describe('File-drop links once unlocked: the display name of the person who asks for the files'),
  })
  .meta({ id: 'PublicLink' });
export type PublicLink = z.infer<typeof PublicLink>;

export const UnlockLinkResponse = z.object({ unlocked: z.literal(true) }).meta({ id: 'UnlockLinkResponse' });
export type UnlockLinkResponse = z.infer<typeof UnlockLinkResponse>;

/** POST /api/public/links/{token}/upload (file-drop links): the name the server stored the file under. */
export const PublicUploadResponse = z
  .object({ fileName: z.string(), size: z.number().int().nonnegative() })
  .meta({ id: 'PublicUploadResponse' });
export type PublicUploadResponse = z.infer<typeof PublicUploadResponse>;

/** POST /api/public/links/{token}/unlock */
export const UnlockLinkRequest = z
  .object({ password: z.string().max(LINK_PASSWORD_MAX, 'Wrong password.') })
  .meta({ id: 'UnlockLinkRequest' });
export type UnlockLinkRequest = z.infer<typeof UnlockLinkRequest>;

/** What the public page says of a link that cannot be used: in `texts.ts` (zod-free, for the public page). */
export { LINK_TEXTS } from './texts';

/** The share endpoints of a file or a folder (`base`: its shares' path): list, and set or revoke one grant. */
function sharesOf<K extends 'file' | 'folder'>(kind: K, base: string) {
  const endpoints = {
    list: endpoint({ method: 'GET', path: base, params: FolderIdParams, response: ShareList }),
    setUser: endpoint({
      method: 'PUT',
      path: `${base}/:userId`,
      params: ShareUserParams,
      body: SetShareRequest,
      response: Share,
    }),
    revokeUser: endpoint({
      method: 'DELETE',
      path: `${base}/:userId`,
      params: ShareUserParams,
      response: RevokeShareResponse,
    }),
    setWorkspace: endpoint({
      method: 'PUT',
      path: `${base}/workspaces/:workspaceId`,
      params: ShareWorkspaceParams,
      body: SetShareRequest,
      response: Share,
    }),
    revokeWorkspace: endpoint({
      method: 'DELETE',
      path: `${base}/workspaces/:workspaceId`,
      params: ShareWorkspaceParams,
      response: RevokeShareResponse,
    }),
  };
  return { [`${kind}Shares`]: endpoints } as Record<`${K}Shares`, typeof endpoints>;
}

/** The sharing endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const sharingEndpoints = {
  ...sharesOf('file', '/api/files/:id/shares'),
  ...sharesOf('folder', '/api/folders/:id/shares'),
  sharedWithMe: endpoint({ method: 'GET', path: '/api/shared-with-me', response: SharedWithMe }),
} as const;

/** The links endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const linksEndpoints = {
  create: endpoint({ method: 'POST', path: '/api/links', body: CreateLinkRequest, response: Link, status: 201 }),
  list: endpoint({ method: 'GET', path: '/api/links', query: LinkListQuery, response: LinkList }),
  revoke: endpoint({ method: 'DELETE', path: '/api/links/:id', params: LinkIdParams, response: RevokeLinkResponse }),
} as const;

/** A link's bearer's routes (no sign-in; the link's page calls them zod-free, from `PUBLIC_ENDPOINTS`). */
export const publicLinksEndpoints = {
  link: endpoint({
    ...PUBLIC_ENDPOINTS.publicLinks.link,
    params: LinkTokenParams,
    query: PublicLinkQuery,
    response: PublicLink,
  }),
  /** A file link's bytes (Range, ETag; `?inline=1` for previews). */
  download: endpoint({ ...PUBLIC_ENDPOINTS.publicLinks.download, params: LinkTokenParams, query: DownloadQuery }),
  /** A file below a folder link's folder. */
  fileDownload: endpoint({
    ...PUBLIC_ENDPOINTS.publicLinks.fileDownload,
    params: PublicLinkFileParams,
    query: DownloadQuery,
  }),
  thumbnail: endpoint({ ...PUBLIC_ENDPOINTS.publicLinks.thumbnail, params: LinkTokenParams }),
  fileThumbnail: endpoint({ ...PUBLIC_ENDPOINTS.publicLinks.fileThumbnail, params: PublicLinkFileParams }),
  /** A folder link's whole folder as a zip, streamed. */
  zip: endpoint({ ...PUBLIC_ENDPOINTS.publicLinks.zip, params: LinkTokenParams }),
  unlock: endpoint({
    ...PUBLIC_ENDPOINTS.publicLinks.unlock,
    params: LinkTokenParams,
    body: UnlockLinkRequest,
    response: UnlockLinkResponse,
  }),
  /** Multipart (field `file`), into a file-drop link's folder. */
  upload: endpoint({
    ...PUBLIC_ENDPOINTS.publicLinks.upload,
    params: LinkTokenParams,
    response: PublicUploadResponse,
    status: 201,
  }),
} as const;

import { z } from 'zod';
import { AuditAction } from './admin';
import { SearchLocation } from './search';
import { Link } from './sharing';
import { endpoint } from './endpoint';
import { FileIdParams } from './files';

/** Most activity entries `GET /api/files/{id}/details` answers (newest first). */
export const FILE_ACTIVITY_MAX = 50;

/** The role a caller or a principal holds on a file. */
export const FileDetailsRole = z.enum(['owner', 'editor', 'viewer']);
export type FileDetailsRole = z.infer<typeof FileDetailsRole>;

/** Someone who can read the file, and why. */
export const FileAccessEntry = z
  .object({
    kind: z
      .enum(['owner', 'member', 'share'])
      .describe('owner: the personal space it is in; member: of its workspace; share: a share on it or a folder above'),
    principal: z.object({
      type: z.enum(['user', 'workspace']),
      id: z.string(),
      name: z.string(),
    }),
    role: FileDetailsRole,
    via: z
      .object({ folderId: z.string(), folderName: z.string() })
      .nullable()
      .describe('For a share on a folder above the file: that folder; null for the file itself'),
  })
  .meta({ id: 'FileAccessEntry' });
export type FileAccessEntry = z.infer<typeof FileAccessEntry>;

/** One audited action on the file. */
export const FileActivityEntry = z
  .object({
    action: AuditAction,
    actor: z.string().nullable().describe('Display name of who acted; null: nobody signed in (a file-drop link)'),
    at: z.string().describe('ISO-8601'),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'FileActivityEntry' });
export type FileActivityEntry = z.infer<typeof FileActivityEntry>;

/** GET /api/files/{id}/details */
export const FileDetails = z
  .object({
    id: z.string(),
    name: z.string(),
    contentType: z.string(),
    size: z.number().int().nonnegative(),
    sha256: z.string().describe('Hex SHA-256 of the current content'),
    createdAt: z.string().describe('ISO-8601: the first upload (its audit entry, else the oldest content still kept)'),
    updatedAt: z.string().describe('ISO-8601: when the current content was stored'),
    location: SearchLocation,
    versions: z.object({
      count: z.number().int().nonnegative().describe('Older versions kept'),
      bytes: z.number().int().nonnegative(),
    }),
    yourRole: FileDetailsRole,
    access: z
      .array(FileAccessEntry)
      .nullable()
      .describe(
        "Who can read it; null unless the caller may share the file (owner or editor): a viewer doesn't see it",
      ),
    links: z
      .array(Link)
      .nullable()
      .describe('Active public links to the file; null unless the caller may manage its links'),
    activity: z
      .array(FileActivityEntry)
      .describe(`Newest first, at most ${FILE_ACTIVITY_MAX}; share and link entries only for who may share the file`),
  })
  .meta({ id: 'FileDetails' });
export type FileDetails = z.infer<typeof FileDetails>;

/** The fileDetails endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const fileDetailsEndpoints = {
  details: endpoint({ method: 'GET', path: '/api/files/:id/details', params: FileIdParams, response: FileDetails }),
} as const;

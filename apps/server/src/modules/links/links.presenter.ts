import type { Link } from '@atrium/contracts';
import type { LinkSubject } from '../../auth/policies/link';
import type { LinkArrivals, LinkRow, LinkWithCreator } from './links.repository';

/** How many arrivals a drop link's row names (docs/PRODUCT.md#file-drop-links). */
export const RECENT_ARRIVALS = 5;

/** The public page's address of a link. */
export const linkUrl = (token: string) => `/s/${token}`;

/**
 * A link as its owner sees it (never the password hash). `suspended`: its maker may no longer share its target
 * (`createLinkMakerCheck` in links.service.ts), so it answers like a revoked link until they may again. `arrivals`:
 * what came through a file-drop link (none yet when absent); other links carry no `received`.
 */
export const presentLink = (
  row: LinkWithCreator,
  { suspended, arrivals }: { suspended: boolean; arrivals?: LinkArrivals | undefined },
): Link => ({
  id: row.id,
  token: row.token,
  url: linkUrl(row.token),
  fileId: row.file_id,
  folderId: row.folder_id,
  expiresAt: row.expires_at,
  hasPassword: row.password_hash !== null,
  maxDownloads: row.max_downloads === null ? null : Number(row.max_downloads),
  downloads: Number(row.download_count),
  allowUpload: Number(row.allow_upload) === 1,
  received:
    Number(row.allow_upload) === 1
      ? {
          count: arrivals?.count ?? 0,
          recent: (arrivals?.recent ?? []).map((a) => ({ fileId: a.file_id, name: a.file_name, at: a.created_at })),
        }
      : null,
  createdAt: row.created_at,
  createdBy: row.creator_name,
  suspended,
});

/** What the link policy reads of a row. */
export const linkSubject = (row: LinkRow): LinkSubject => ({
  id: row.id,
  kind: row.file_id === null ? 'folder' : 'file',
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  hasPassword: row.password_hash !== null,
  maxDownloads: row.max_downloads === null ? null : Number(row.max_downloads),
  downloads: Number(row.download_count),
  allowUpload: Number(row.allow_upload) === 1,
});

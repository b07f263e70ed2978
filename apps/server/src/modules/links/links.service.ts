import { randomBytes, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type {
  CreateLinkRequest,
  Link,
  PublicLink,
  PublicLinkQuery,
  PublicUploadResponse,
  RevokeLinkResponse,
} from '@atrium/contracts';
import { LINK_TEXTS } from '@atrium/contracts/texts';
import type { LinkActor, UserActor } from '../../auth/actor';
import { LINK_MANAGE_ACTION, requireLink, type LinkAction } from '../../auth/policies/link';
import { AppError } from '../../errors';
import type { BlobRecord } from '../../lib/http/send-blob';
import { createZipStream } from '../../lib/http/zip-stream';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { RateLimiter } from '../../lib/rate-limiter';
import { iso, type Clock } from '../../lib/time';
import type { FilesService, UploadInput } from '../files/files.service';
import { toStoredFile, type StoredFile } from '../files/stored-file';
import type { FoldersService } from '../spaces/folders.service';
import { linkSubject, presentLink } from './links.presenter';
import type { LinkRow, LinksRepository } from './links.repository';
import { unlockCookieName, type Unlocker } from './unlock-cookie';

/** Random bytes in a token: 192 bits (the issue asks for at least 128), 32 base64url characters. */
const TOKEN_BYTES = 24;

/** Wrong passwords allowed per link and per client IP in `UNLOCK_WINDOW_MS` (shared by all instances). */
export const UNLOCK_LIMITS = { perLink: 30, perIp: 10, windowMs: 15 * 60 * 1000 } as const;
/** Counter names of wrong passwords (swept with the unlock route's declared limit, same prefix). */
const failKeys = (linkId: string, ip: string) => [`link-unlock:fail-link:${linkId}`, `link-unlock:fail-ip:${ip}`];

export const LINK_MESSAGES = {
  uploadNeedsFolder: 'Only folder links can accept uploads (allowUpload).',
  expiryPast: 'expiresAt must be in the future.',
  folderLink: 'This link shares a folder: download its files one by one or as a zip.',
  fileLink: 'This link shares a single file: download it with /download.',
} as const;

export interface LinksServiceDeps {
  repo: LinksRepository;
  files: Pick<FilesService, 'authorize' | 'findUnchecked' | 'blobOf' | 'ingestIntoFolder' | 'thumbnailUnchecked'>;
  folders: Pick<FoldersService, 'authorize' | 'pageUnchecked'>;
  unlocker: Unlocker;
  limiter: Pick<RateLimiter, 'peek' | 'hit'>;
  clock: Clock;
}

/** Cookies of the request (the unlock cookie is looked up by the link's name). */
export type Cookies = Record<string, string | undefined>;

/** A link's bearer on one request: the link row and its actor. */
interface Bearing {
  link: LinkRow;
  actor: LinkActor;
}

/**
 * Public links (issue 15): their owners create, list and revoke them (`share` on the file or folder, decided by the
 * file and folder policies); their bearers see, download, zip and (file drops) upload through them, as the link
 * policy (`auth/policies/link.ts`) allows. The token is stored as is (the owner copies it again from the list);
 * the password as an scrypt hash.
 */
export function createLinksService({ repo, files, folders, unlocker, limiter, clock }: LinksServiceDeps) {
  /** The resource of a link, checked for managing links (hidden → the given 404). */
  async function authorizeTarget(
    actor: UserActor,
    target: { fileId?: string | null | undefined; folderId?: string | null | undefined },
  ): Promise<void> {
    if (target.fileId) await files.authorize(actor, target.fileId, LINK_MANAGE_ACTION);
    else if (target.folderId) await folders.authorize(actor, target.folderId, LINK_MANAGE_ACTION);
    else throw new AppError('BAD_REQUEST', 'Send a fileId or a folderId (one of them).');
  }

  /** The bearer of `token` on this request, checked for `action`. */
  async function bear(token: string, cookies: Cookies, action: LinkAction): Promise<Bearing> {
    const link = await repo.findByToken(token);
    const actor: LinkActor = { kind: 'link', linkId: link?.id ?? '', unlocked: false };
    if (link) {
      actor.unlocked =
        link.password_hash === null ||
        unlocker.verify(
          { id: link.id, passwordHash: link.password_hash },
          cookies[unlockCookieName(link.id)],
          clock.now(),
        );
    }
    await requireLink(actor, action, clock.now(), async () => (link ? linkSubject(link) : undefined));
    if (!link) throw new AppError('LINK_NOT_FOUND', LINK_TEXTS.revoked);
    return { link, actor };
  }

  const folderOf = (link: LinkRow): string => {
    if (link.folder_id === null) throw new AppError('BAD_REQUEST', LINK_MESSAGES.fileLink);
    return link.folder_id;
  };

  /** The file a link's bearer asks for: the link's file, or a file anywhere below the link's folder. */
  async function fileOf(link: LinkRow, fileId?: string): Promise<StoredFile> {
    if (fileId === undefined) {
      if (link.file_id === null) throw new AppError('BAD_REQUEST', LINK_MESSAGES.folderLink);
      const file = await files.findUnchecked(link.file_id);
      if (!file) throw new AppError('LINK_NOT_FOUND', LINK_TEXTS.revoked);
      return file;
    }
    const root = folderOf(link);
    const file = await files.findUnchecked(fileId);
    if (!file || file.folderId === null || !(await repo.isWithin(file.folderId, root))) {
      throw new AppError('FILE_NOT_FOUND', LINK_TEXTS.notInFolder);
    }
    return file;
  }

  /** Counts one download of a link (410 when it was used up meanwhile, 404 when revoked meanwhile). */
  async function countDownload(linkId: string): Promise<void> {
    if (await repo.countDownload(linkId)) return;
    const link = await repo.findById(linkId);
    if (!link || link.revoked_at !== null) throw new AppError('LINK_NOT_FOUND', LINK_TEXTS.revoked);
    throw new AppError('LINK_USED_UP', LINK_TEXTS.usedUp);
  }

  return {
    async create(actor: UserActor, input: CreateLinkRequest): Promise<Link> {
      if (input.allowUpload && input.fileId !== undefined) {
        throw new AppError('BAD_REQUEST', LINK_MESSAGES.uploadNeedsFolder);
      }
      const now = clock.now();
      if (input.expiresAt !== undefined && Date.parse(input.expiresAt) <= now.getTime()) {
        throw new AppError('BAD_REQUEST', LINK_MESSAGES.expiryPast);
      }
      await authorizeTarget(actor, input);
      const row: LinkRow = {
        id: randomUUID(),
        token: randomBytes(TOKEN_BYTES).toString('base64url'),
        file_id: input.fileId ?? null,
        folder_id: input.folderId ?? null,
        created_by: actor.id,
        created_at: iso(now),
        expires_at: input.expiresAt === undefined ? null : iso(new Date(input.expiresAt)),
        password_hash: input.password === undefined ? null : await hashPassword(input.password),
        max_downloads: input.maxDownloads ?? null,
        download_count: 0,
        allow_upload: input.allowUpload ? 1 : 0,
        revoked_at: null,
      };
      await repo.insert(row);
      return presentLink({ ...row, creator_name: actor.name ?? actor.nickname });
    },

    async list(actor: UserActor, target: { fileId?: string | undefined; folderId?: string | undefined }) {
      await authorizeTarget(actor, target);
      const rows = await repo.listFor(target.fileId ? { fileId: target.fileId } : { folderId: target.folderId ?? '' });
      return rows.map(presentLink);
    },

    /** Revokes a link: from now on it answers 404. Anyone who may share its file or folder may revoke it. */
    async revoke(actor: UserActor, id: string): Promise<RevokeLinkResponse> {
      const link = await repo.findById(id);
      if (!link || link.revoked_at !== null) throw new AppError('LINK_NOT_FOUND');
      try {
        await authorizeTarget(actor, { fileId: link.file_id, folderId: link.folder_id });
      } catch (error) {
        // A link to something the actor may not know of is as missing as an unknown link.
        if (error instanceof AppError && error.statusCode === 404) throw new AppError('LINK_NOT_FOUND');
        throw error;
      }
      await repo.revoke(id, iso(clock.now()));
      return { id, revoked: true };
    },

    /** The public page's data: locked links show only that they are; file drops never list their folder. */
    async metadata(token: string, cookies: Cookies, query: PublicLinkQuery): Promise<PublicLink> {
      const { link, actor } = await bear(token, cookies, 'view');
      const subject = linkSubject(link);
      const base = {
        kind: subject.kind,
        locked: !actor.unlocked,
        allowUpload: subject.allowUpload,
        expiresAt: link.expires_at,
      };
      if (!actor.unlocked || subject.allowUpload) return base;
      if (subject.kind === 'file') {
        const file = await fileOf(link);
        return {
          ...base,
          file: {
            fileName: file.fileName,
            size: file.size,
            contentType: file.contentType,
            uploadDate: file.uploadDate,
          },
        };
      }
      const root = folderOf(link);
      const folderId = query.folderId ?? root;
      const path = await repo.pathBetween(root, folderId);
      const here = path.at(-1);
      if (!here) throw new AppError('FOLDER_NOT_FOUND');
      const page = await folders.pageUnchecked(folderId, {
        limit: query.limit,
        sort: 'name',
        order: 'asc',
        ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
      });
      return {
        ...base,
        folder: {
          id: here.id,
          name: here.name,
          path,
          nextCursor: page.nextCursor,
          folders: page.folders.map((f) => ({ id: f.id, name: f.name })),
          files: page.files.map((f) => ({
            id: f.id,
            fileName: f.fileName,
            size: f.size,
            contentType: f.contentType,
            uploadDate: f.uploadDate,
          })),
        },
      };
    },

    /** A file's bytes through a link (`fileId`: a file below a folder link's folder), with its link's id. */
    async download(token: string, cookies: Cookies, fileId?: string): Promise<{ linkId: string; blob: BlobRecord }> {
      const { link } = await bear(token, cookies, 'read');
      return { linkId: link.id, blob: files.blobOf(await fileOf(link, fileId)) };
    },

    countDownload,

    /** A small WebP of an image reached through a link (the page's previews and listings; not a download). */
    async thumbnail(token: string, cookies: Cookies, fileId?: string): Promise<{ file: StoredFile; stream: Readable }> {
      const { link } = await bear(token, cookies, 'read');
      const file = await fileOf(link, fileId);
      return { file, stream: await files.thumbnailUnchecked(file) };
    },

    /**
     * The whole folder of a folder link as a zip, streamed (stored, not compressed: most files are compressed
     * already, and the size is known up front, so the answer has a Content-Length). Counts one download.
     */
    async zip(
      token: string,
      cookies: Cookies,
      { count = true }: { count?: boolean } = {},
    ): Promise<{ fileName: string; size: number; stream: Readable }> {
      const { link } = await bear(token, cookies, 'read');
      const root = folderOf(link);
      const [top] = await repo.pathBetween(root, root);
      if (!top) throw new AppError('LINK_NOT_FOUND', LINK_TEXTS.revoked);
      const subfolders = await repo.subfolders(root);
      const rows = await repo.filesIn([root, ...subfolders.map((folder) => folder.id)]);
      if (count) await countDownload(link.id);
      const zip = createZipStream();
      const pathOf = new Map<string, string>([[root, '']]);
      for (const folder of subfolders)
        pathOf.set(folder.id, zip.folder(pathOf.get(folder.parent_id ?? '') ?? '', folder.name));
      for (const row of rows) {
        const file = toStoredFile(row);
        zip.file(pathOf.get(row.folder_id ?? '') ?? '', file.fileName, {
          size: file.size,
          mtime: new Date(file.uploadDate),
          open: () => files.blobOf(file).open(),
        });
      }
      const { size, stream } = await zip.finish();
      return { fileName: `${top.name}.zip`, size, stream };
    },

    /**
     * Checks a link's password; right → the unlock cookie to set (none for a link without password). Wrong passwords
     * are counted per link and per client IP; past either limit every attempt is 429 until the window ends.
     */
    async unlock(
      token: string,
      password: string,
      ip: string,
    ): Promise<{ cookie?: { name: string; value: string; maxAgeSeconds: number } }> {
      const { link } = await bear(token, {}, 'view');
      if (link.password_hash === null) return {};
      const [perLink, perIp] = failKeys(link.id, ip) as [string, string];
      const counts = await Promise.all([
        limiter.peek(perLink, UNLOCK_LIMITS.windowMs),
        limiter.peek(perIp, UNLOCK_LIMITS.windowMs),
      ]);
      const blocked = counts.find(
        (count, index) => count.hits >= (index === 0 ? UNLOCK_LIMITS.perLink : UNLOCK_LIMITS.perIp),
      );
      if (blocked) {
        throw new AppError('RATE_LIMITED', LINK_TEXTS.tooManyAttempts, {
          headers: { 'retry-after': String(blocked.retryAfterSeconds) },
        });
      }
      if (!(await verifyPassword(password, link.password_hash))) {
        await Promise.all([limiter.hit(perLink, UNLOCK_LIMITS.windowMs), limiter.hit(perIp, UNLOCK_LIMITS.windowMs)]);
        throw new AppError('INVALID_CREDENTIALS', LINK_TEXTS.wrongPassword);
      }
      const issued = unlocker.issue(
        { id: link.id, passwordHash: link.password_hash, expiresAt: link.expires_at },
        clock.now(),
      );
      return { cookie: { name: unlockCookieName(link.id), ...issued } };
    },

    /**
     * The folder a file-drop link's bearer may upload into, checked before any byte of the body is read (so a
     * refused upload costs nothing).
     */
    async uploadFolder(token: string, cookies: Cookies): Promise<string> {
      const { link } = await bear(token, cookies, 'upload');
      return folderOf(link);
    },

    /** Stores an anonymous upload in a file drop's folder (its space, quota, upload limit and name rules). */
    async upload(folderId: string, input: UploadInput): Promise<PublicUploadResponse> {
      const record = await files.ingestIntoFolder(folderId, null, input);
      return { fileName: record.fileName, size: record.size };
    },
  };
}

export type LinksService = ReturnType<typeof createLinksService>;

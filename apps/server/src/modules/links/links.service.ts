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
import { displayNameOf, type LinkActor, type UserActor } from '../../auth/actor';
import { LINK_MANAGE_ACTION, linkState, requireLink, type LinkAction } from '../../auth/policies/link';
import { AppError } from '../../errors';
import type { BlobRecord } from '../../lib/http/send-blob';
import { addFolderTree, createZipStream } from '../../lib/http/zip-stream';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { Hit, RateLimiter } from '../../lib/rate-limiter';
import { iso, type Clock } from '../../lib/time';
import { type FilesService, type UploadInput, toStoredFile, type StoredFile } from '../files';
import type { FoldersService } from '../spaces';
import type { UsersRepository } from '../auth';
import { createLinkMakerCheck } from './link-maker-check';
import { linkSubject, presentLink, RECENT_ARRIVALS } from './links.presenter';
import type { LinkMaker, LinkRow, LinksRepository } from './links.repository';
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
  files: Pick<
    FilesService,
    'authorize' | 'findUnchecked' | 'blobOf' | 'ingestIntoFolder' | 'thumbnailUnchecked' | 'zipEntryOf'
  >;
  folders: Pick<FoldersService, 'authorize' | 'pageUnchecked'>;
  unlocker: Unlocker;
  limiter: Pick<RateLimiter, 'hit' | 'unhit'>;
  clock: Clock;
  /** The link's maker, whose right to share the target the link borrows (`makerCheck`). */
  users: Pick<UsersRepository, 'findById'>;
}

/** Cookies of the request (the unlock cookie is looked up by the link's name). */
export type Cookies = Record<string, string | undefined>;

/** A link's bearer on one request: the link row and its actor. */
interface Bearing {
  link: LinkRow & LinkMaker;
  actor: LinkActor;
}

/**
 * Public links (docs/PRODUCT.md#public-links): their owners create, list and revoke them (`share` on the file or
 * folder, decided by the file and folder policies); their bearers see, download, zip and (file drops) upload through
 * them, as the link policy (`auth/policies/link.ts`) allows. The token is stored as is (the owner copies it again from
 * the list); the password as an scrypt hash.
 */
export function createLinksService({ repo, files, folders, unlocker, limiter, clock, users }: LinksServiceDeps) {
  const makerMayShare = createLinkMakerCheck({ users, files, folders });

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
    // A suspended link is as gone as a revoked one to its bearer (nothing about why leaks).
    if (!(await makerMayShare(link))) throw new AppError('LINK_NOT_FOUND', LINK_TEXTS.revoked);
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

  /** Why a download could not be counted: 404 when the link was revoked meanwhile, else 410 (used up). */
  async function refusedDownload(linkId: string): Promise<never> {
    const link = await repo.findById(linkId);
    if (!link || link.revoked_at !== null) throw new AppError('LINK_NOT_FOUND', LINK_TEXTS.revoked);
    throw new AppError('LINK_USED_UP', LINK_TEXTS.usedUp);
  }

  /** Counts one download of a link (the zip: one answer without ranges; 410 or 404 as `refusedDownload`). */
  async function countDownload(linkId: string): Promise<void> {
    if (!(await repo.countDownload(linkId))) await refusedDownload(linkId);
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
        bytes_allowed: 0,
        bytes_served: 0,
      };
      await repo.insert(row);
      return presentLink({ ...row, creator_name: actor.name ?? actor.nickname }, { suspended: false });
    },

    async list(actor: UserActor, target: { fileId?: string | undefined; folderId?: string | undefined }) {
      await authorizeTarget(actor, target);
      const rows = await repo.listFor(target.fileId ? { fileId: target.fileId } : { folderId: target.folderId ?? '' });
      const drops = rows.filter((row) => Number(row.allow_upload) === 1).map((row) => row.id);
      const arrivals = drops.length > 0 ? await repo.arrivalsOf(drops, RECENT_ARRIVALS) : new Map<string, never>();
      return Promise.all(
        rows.map(async (row) =>
          presentLink(row, { suspended: !(await makerMayShare(row)), arrivals: arrivals.get(row.id) }),
        ),
      );
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
      if (!actor.unlocked) return base;
      if (subject.allowUpload) {
        // A file drop names who asks for the files (docs/PRODUCT.md#sharing-screens-web), never lists the folder.
        const sharedBy = displayNameOf({ name: link.maker_name, nickname: link.maker_nickname });
        return sharedBy ? { ...base, sharedBy } : base;
      }
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

    /**
     * A file's bytes through a link (`fileId`: a file below a folder link's folder), with its link. Checked as
     * `resume`: a used-up link is refused by `transfer`, which knows whether the request continues a download.
     */
    async download(token: string, cookies: Cookies, fileId?: string): Promise<{ link: LinkRow; blob: BlobRecord }> {
      const { link } = await bear(token, cookies, 'resume');
      return { link, blob: files.blobOf(await fileOf(link, fileId)) };
    },

    /**
     * Counts what a request through a link is about to send, before a byte goes out (docs/PRODUCT.md#public-links).
     * A whole GET or a first range starts a download: it counts one (within `maxDownloads`) and allows the file's
     * size in bytes. A later range (a resume, a seek) continues on those bytes while they cover it; past them it
     * starts a download of its own. So no run of ranges sends more than the counted downloads allow: 20 ×
     * `bytes=1-` on a link of one download get one answer, and a download cut short resumes within it. Nothing to
     * send (HEAD, 304, 416): a used-up link still answers 410, as for any other route.
     */
    async transfer(
      link: LinkRow,
      plan: { kind: 'nothing' } | { kind: 'bytes'; start: number; length: number },
      size: number,
    ): Promise<void> {
      if (plan.kind === 'nothing') {
        if (linkState(linkSubject(link), clock.now()) === 'usedUp') {
          throw new AppError('LINK_USED_UP', LINK_TEXTS.usedUp);
        }
        return;
      }
      if (plan.start > 0 && (await repo.continueTransfer(link.id, plan.length))) return;
      if (await repo.startTransfer(link.id, size, plan.length)) return;
      await refusedDownload(link.id);
    },

    /** Gives back the bytes of a transfer that stopped before sending them all (the client went away). */
    refundBytes: (linkId: string, bytes: number) => repo.refundBytes(linkId, bytes),

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
      const zip = createZipStream();
      await addFolderTree(zip, '', root, repo, (row) => files.zipEntryOf(toStoredFile(row)));
      if (count) await countDownload(link.id);
      const { size, stream } = await zip.finish();
      return { fileName: `${top.name}.zip`, size, stream };
    },

    /**
     * Checks a link's password; right → the unlock cookie to set (none for a link without password). Wrong passwords
     * are counted per client IP and per link; past either limit every attempt is 429 until the window ends.
     *
     * Each attempt is counted (one atomic upsert per counter, the address first) BEFORE the password is checked, so
     * parallel attempts cannot all pass a look at the counters and be checked; an attempt that was refused, or whose
     * password was right, is taken back afterwards, so only wrong passwords stay counted
     * (docs/PRODUCT.md#public-links).
     */
    async unlock(
      token: string,
      password: string,
      ip: string,
    ): Promise<{ cookie?: { name: string; value: string; maxAgeSeconds: number } }> {
      const { link } = await bear(token, {}, 'view');
      if (link.password_hash === null) return {};
      const [perLink, perIp] = failKeys(link.id, ip) as [string, string];
      const counted: Hit[] = [];
      const takeBack = () => Promise.all(counted.map((hit) => limiter.unhit(hit)));
      let right: boolean;
      try {
        for (const [key, max] of [
          [perIp, UNLOCK_LIMITS.perIp],
          [perLink, UNLOCK_LIMITS.perLink],
        ] as const) {
          const hit = await limiter.hit(key, UNLOCK_LIMITS.windowMs);
          counted.push(hit);
          if (hit.hits > max) {
            throw new AppError('RATE_LIMITED', LINK_TEXTS.tooManyAttempts, {
              headers: { 'retry-after': String(hit.retryAfterSeconds) },
            });
          }
        }
        right = await verifyPassword(password, link.password_hash);
      } catch (error) {
        await takeBack();
        throw error;
      }
      if (!right) throw new AppError('INVALID_CREDENTIALS', LINK_TEXTS.wrongPassword);
      await takeBack();
      const issued = unlocker.issue(
        { id: link.id, passwordHash: link.password_hash, expiresAt: link.expires_at },
        clock.now(),
      );
      return { cookie: { name: unlockCookieName(link.id), ...issued } };
    },

    /**
     * The folder a file-drop link's bearer may upload into (and the link and its maker, told of each arrival),
     * checked before any byte of the body is read (so a refused upload costs nothing).
     */
    async uploadFolder(
      token: string,
      cookies: Cookies,
    ): Promise<{ folderId: string; linkId: string; makerId: string | null }> {
      const { link } = await bear(token, cookies, 'upload');
      return { folderId: folderOf(link), linkId: link.id, makerId: link.created_by };
    },

    /**
     * Stores an anonymous upload in a file drop's folder (its space, quota, upload limit and name rules) and records it
     * as arrived through the link (docs/PRODUCT.md#file-drop-links).
     */
    async upload(folderId: string, linkId: string, input: UploadInput): Promise<PublicUploadResponse> {
      const record = await files.ingestIntoFolder(folderId, null, input);
      await repo.recordArrival({
        id: randomUUID(),
        link_id: linkId,
        file_id: record.id,
        file_name: record.fileName,
        created_at: iso(clock.now()),
      });
      return { fileName: record.fileName, size: record.size };
    },
  };
}

export type LinksService = ReturnType<typeof createLinksService>;

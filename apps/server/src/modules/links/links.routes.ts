import { Readable, Transform, pipeline } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ENDPOINTS } from '@atrium/contracts';
import { LINK_TEXTS } from '@atrium/contracts/texts';
import { plannedSend, sendBlob, sendThumbnail, type BlobRecord } from '../../lib/http/send-blob';
import { zipHeaders } from '../../lib/http/zip-stream';
import { withFilePart } from '../../lib/multipart';
import type { RouteRateLimit } from '../../plugins/rate-limit';
import type { EventEmitter } from '../../events';
import { changeBy, requestContext } from '../../lib/http/request-context';
import type { LinksService } from './links.service';
import { UNLOCK_LIMITS } from './links.service';
import { routesOf } from '../../plugins/route';

/** Every public link route: per client IP, all of them together (a page, its downloads, its uploads). */
export const PUBLIC_LINK_RATE_LIMIT: RouteRateLimit = {
  name: 'public-links',
  max: 600,
  windowMs: 60_000,
  message: LINK_TEXTS.tooManyRequests,
};
/** Unlock attempts per client IP (wrong passwords are counted apart, per link and per IP, by the service). */
export const UNLOCK_RATE_LIMIT: RouteRateLimit = {
  name: 'link-unlock',
  max: 100,
  windowMs: UNLOCK_LIMITS.windowMs,
  message: LINK_TEXTS.tooManyAttempts,
};

const user = { access: 'user' } as const;
const pub = { access: 'public', rateLimit: PUBLIC_LINK_RATE_LIMIT } as const;
const linkErrors = [401, 403, 404, 410, 429] as const;

export interface LinksRouteOptions {
  links: LinksService;
  /** Link creation and revocation are emitted as audited events (the audit log records them). */
  events: EventEmitter;
  maxUploadBytes: number;
  /** Secure unlock cookies (https), like the session cookie. */
  secureCookies: boolean;
}

/**
 * The blob with its bytes counted as they leave: when the answer ends before all `reserved` bytes went out (the
 * client went away), `onShort` gets the bytes not sent, to give back (a resume then fits in what was counted).
 * Bytes handed to the socket count as sent.
 */
function countingBlob(
  blob: BlobRecord,
  reply: FastifyReply,
  reserved: number,
  onShort: (unsent: number) => Promise<void>,
): BlobRecord {
  let sent = 0;
  reply.raw.once('close', () => {
    if (sent < reserved) onShort(reserved - sent).catch((error: unknown) => reply.log.warn({ err: error }, 'refund'));
  });
  return {
    ...blob,
    async open(range) {
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          sent += chunk.length;
          done(null, chunk);
        },
      });
      const source = await blob.open(range);
      pipeline(source, counter, () => {});
      return counter;
    },
  };
}

/** POST/GET/DELETE /api/links (owners and editors) and the public routes of a link's bearer. */
export async function registerLinksRoutes(
  app: FastifyInstance,
  { links, events, maxUploadBytes, secureCookies }: LinksRouteOptions,
) {
  const { create, list, revoke } = ENDPOINTS.links;

  const serve = routesOf(app, { config: user, tags: ['links'] });

  serve(create, {
    summary: 'Create a public link to a file or folder (you must be allowed to share it: owner or editor)',
    errors: [400, 403, 404],
    handler: async (request, reply) => {
      const actor = await request.requireUser();
      const link = await links.create(actor, request.body);
      await events.emit(
        'link.created',
        changeBy(request, actor, {
          target: `link:${link.id}`,
          subject:
            link.fileId !== null ? `file:${link.fileId}` : link.folderId !== null ? `folder:${link.folderId}` : null,
          details: {
            fileId: link.fileId,
            folderId: link.folderId,
            expiresAt: link.expiresAt,
            hasPassword: link.hasPassword,
            maxDownloads: link.maxDownloads,
            allowUpload: link.allowUpload,
          },
        }),
      );
      return reply.status(create.status).send(link);
    },
  });

  serve(list, {
    summary: "A file's or folder's links not revoked, newest first (with their download counts)",
    errors: [400, 403, 404],
    handler: async (request) => links.list(await request.requireUser(), request.query),
  });

  serve(revoke, {
    summary: 'Revoke a link (it answers 404 from then on)',
    errors: [403, 404],
    handler: async (request) => {
      const actor = await request.requireUser();
      const revoked = await links.revoke(actor, request.params.id);
      await events.emit('link.revoked', changeBy(request, actor, { target: `link:${revoked.id}` }));
      return revoked;
    },
  });

  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: maxUploadBytes + 1, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 25, headerPairs: 100 },
    });
    // Link answers stay out of search engines and never pass the link (its token) on in a Referer.
    scope.addHook('onSend', async (_request, reply, payload) => {
      void reply.header('x-robots-tag', 'noindex, nofollow').header('referrer-policy', 'no-referrer');
      return payload;
    });
    const P = ENDPOINTS.publicLinks;

    const servePublic = routesOf(scope, { config: pub, tags: ['public links'] });

    servePublic(P.link, {
      summary:
        "What a link's page shows: a file's details, a folder's listing (paged; ?folderId= for a folder below it), or only that it is locked",
      errors: [400, ...linkErrors],
      handler: async (request, reply) => {
        void reply.header('cache-control', 'no-store');
        return links.metadata(request.params.token, request.cookies, request.query);
      },
    });

    const download = async (
      request: FastifyRequest,
      reply: FastifyReply,
      params: { token: string; fileId?: string; inline?: string | undefined },
    ) => {
      const found = await links.download(params.token, request.cookies, params.fileId);
      const plan = plannedSend(request, found.blob);
      await links.transfer(found.link, plan, found.blob.size);
      const blob =
        plan.kind === 'bytes'
          ? countingBlob(found.blob, reply, plan.length, (unsent) => links.refundBytes(found.link.id, unsent))
          : found.blob;
      const inline = params.inline === '1' || params.inline === 'true';
      return sendBlob(request, reply, blob, { disposition: inline ? 'inline' : 'attachment' });
    };

    servePublic(P.download, {
      summary:
        "A file link's bytes (Range, ETag; ?inline=1 for previews); a whole GET or the first range counts as a download",
      handler: async (request, reply) => download(request, reply, { ...request.params, inline: request.query.inline }),
    });

    servePublic(P.fileDownload, {
      summary:
        "A file anywhere below a folder link's folder (Range, ETag; ?inline=1 for previews); counts as the link's download does",
      handler: async (request, reply) => download(request, reply, { ...request.params, inline: request.query.inline }),
    });

    const thumbnail = async (request: FastifyRequest, reply: FastifyReply, token: string, fileId?: string) =>
      sendThumbnail(request, reply, await links.thumbnail(token, request.cookies, fileId));

    servePublic(P.thumbnail, {
      summary: "A WebP thumbnail of a file link's image (not counted as a download)",
      handler: async (request, reply) => thumbnail(request, reply, request.params.token),
    });

    servePublic(P.fileThumbnail, {
      summary: "A WebP thumbnail of an image below a folder link's folder (not counted as a download)",
      handler: async (request, reply) => thumbnail(request, reply, request.params.token, request.params.fileId),
    });

    servePublic(P.zip, {
      summary: "A folder link's whole folder as a zip, streamed (counts one download)",
      handler: async (request, reply) => {
        const zip = await links.zip(request.params.token, request.cookies, { count: request.method === 'GET' });
        void reply.headers(zipHeaders(zip));
        if (request.method === 'HEAD') {
          // The headers only: nothing is read (blobs open lazily, as the zip is read).
          zip.stream.destroy();
          return reply.send(Readable.from([]));
        }
        return reply.send(zip.stream);
      },
    });

    servePublic(P.unlock, {
      config: { access: 'public', rateLimit: UNLOCK_RATE_LIMIT },
      summary: "Give a link's password: sets an HttpOnly cookie that unlocks this link in this browser",
      errors: [400, ...linkErrors],
      handler: async (request, reply) => {
        const { cookie } = await links.unlock(request.params.token, request.body.password, request.ip);
        if (cookie) {
          void reply.setCookie(cookie.name, cookie.value, {
            path: '/',
            httpOnly: true,
            sameSite: 'lax',
            secure: secureCookies,
            maxAge: cookie.maxAgeSeconds,
          });
        }
        return { unlocked: true as const };
      },
    });

    servePublic(P.upload, {
      summary:
        'Upload a file (multipart field "file") through a file-drop link into its folder (the folder\'s quota and the upload limit apply; the server names it)',
      errors: [400, ...linkErrors, 409, 413],
      handler: async (request, reply) => {
        // Before the body is read: a refused upload costs no bytes.
        const { folderId, linkId, makerId } = await links.uploadFolder(request.params.token, request.cookies);
        return withFilePart(request, async (part) => {
          const stored = await links.upload(folderId, linkId, {
            ...part,
            context: { actor: null, ...requestContext(request) },
          });
          // The link's maker hears of arrivals (docs/PRODUCT.md#notifications: one notice per burst).
          await events.emit('drop.received', { linkId, makerId, folderId, fileName: stored.fileName });
          return reply.status(P.upload.status).send(stored);
        });
      },
    });
  });
}

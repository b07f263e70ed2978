import { Readable, Transform, pipeline } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ENDPOINTS, ErrorResponse } from '@atrium/contracts';
import { LINK_TEXTS } from '@atrium/contracts/texts';
import { plannedSend, sendBlob, sendThumbnail, type BlobRecord } from '../../lib/http/send-blob';
import { zipHeaders } from '../../lib/http/zip-stream';
import { withFilePart } from '../../lib/multipart';
import type { RouteRateLimit } from '../../plugins/rate-limit';
import type { EventEmitter } from '../../events';
import { requestContext } from '../../lib/http/request-context';
import type { LinksService } from './links.service';
import { UNLOCK_LIMITS } from './links.service';

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
const linkErrors = {
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  410: ErrorResponse,
  429: ErrorResponse,
};

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
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { create, list, revoke } = ENDPOINTS.links;

  typed.route({
    method: create.method,
    url: create.path,
    config: user,
    schema: {
      tags: ['links'],
      summary: 'Create a public link to a file or folder (you must be allowed to share it: owner or editor)',
      body: create.body,
      response: { [create.status]: create.response, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
    },
    handler: async (request, reply) => {
      const actor = await request.requireUser();
      const link = await links.create(actor, request.body);
      await events.emit('link.created', {
        actor: actor.ownerKey,
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
        ...requestContext(request),
      });
      return reply.status(create.status).send(link);
    },
  });

  typed.route({
    method: list.method,
    url: list.path,
    config: user,
    schema: {
      tags: ['links'],
      summary: "A file's or folder's links not revoked, newest first (with their download counts)",
      querystring: list.query,
      response: { 200: list.response, 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
    },
    handler: async (request) => links.list(await request.requireUser(), request.query),
  });

  typed.route({
    method: revoke.method,
    url: revoke.path,
    config: user,
    schema: {
      tags: ['links'],
      summary: 'Revoke a link (it answers 404 from then on)',
      params: revoke.params,
      response: { 200: revoke.response, 403: ErrorResponse, 404: ErrorResponse },
    },
    handler: async (request) => {
      const actor = await request.requireUser();
      const revoked = await links.revoke(actor, request.params.id);
      await events.emit('link.revoked', {
        actor: actor.ownerKey,
        target: `link:${revoked.id}`,
        ...requestContext(request),
      });
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
    const pubTyped = scope.withTypeProvider<ZodTypeProvider>();
    const P = ENDPOINTS.publicLinks;

    pubTyped.route({
      method: P.link.method,
      url: P.link.path,
      config: pub,
      schema: {
        tags: ['public links'],
        summary:
          "What a link's page shows: a file's details, a folder's listing (paged; ?folderId= for a folder below it), or only that it is locked",
        params: P.link.params,
        querystring: P.link.query,
        response: { 200: P.link.response, 400: ErrorResponse, ...linkErrors },
      },
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

    pubTyped.route({
      method: P.download.method,
      url: P.download.path,
      config: pub,
      schema: {
        tags: ['public links'],
        summary:
          "A file link's bytes (Range, ETag; ?inline=1 for previews); a whole GET or the first range counts as a download",
        params: P.download.params,
        querystring: P.download.query,
      },
      handler: async (request, reply) => download(request, reply, { ...request.params, inline: request.query.inline }),
    });

    pubTyped.route({
      method: P.fileDownload.method,
      url: P.fileDownload.path,
      config: pub,
      schema: {
        tags: ['public links'],
        summary:
          "A file anywhere below a folder link's folder (Range, ETag; ?inline=1 for previews); counts as the link's download does",
        params: P.fileDownload.params,
        querystring: P.fileDownload.query,
      },
      handler: async (request, reply) => download(request, reply, { ...request.params, inline: request.query.inline }),
    });

    const thumbnail = async (request: FastifyRequest, reply: FastifyReply, token: string, fileId?: string) =>
      sendThumbnail(request, reply, await links.thumbnail(token, request.cookies, fileId));

    pubTyped.route({
      method: P.thumbnail.method,
      url: P.thumbnail.path,
      config: pub,
      schema: {
        tags: ['public links'],
        summary: "A WebP thumbnail of a file link's image (not counted as a download)",
        params: P.thumbnail.params,
      },
      handler: async (request, reply) => thumbnail(request, reply, request.params.token),
    });

    pubTyped.route({
      method: P.fileThumbnail.method,
      url: P.fileThumbnail.path,
      config: pub,
      schema: {
        tags: ['public links'],
        summary: "A WebP thumbnail of an image below a folder link's folder (not counted as a download)",
        params: P.fileThumbnail.params,
      },
      handler: async (request, reply) => thumbnail(request, reply, request.params.token, request.params.fileId),
    });

    pubTyped.route({
      method: P.zip.method,
      url: P.zip.path,
      config: pub,
      schema: {
        tags: ['public links'],
        summary: "A folder link's whole folder as a zip, streamed (counts one download)",
        params: P.zip.params,
      },
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

    pubTyped.route({
      method: P.unlock.method,
      url: P.unlock.path,
      config: { access: 'public', rateLimit: UNLOCK_RATE_LIMIT },
      schema: {
        tags: ['public links'],
        summary: "Give a link's password: sets an HttpOnly cookie that unlocks this link in this browser",
        params: P.unlock.params,
        body: P.unlock.body,
        response: { 200: P.unlock.response, 400: ErrorResponse, ...linkErrors },
      },
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

    pubTyped.route({
      method: P.upload.method,
      url: P.upload.path,
      config: pub,
      schema: {
        tags: ['public links'],
        summary:
          'Upload a file (multipart field "file") through a file-drop link into its folder (the folder\'s quota and the upload limit apply; the server names it)',
        params: P.upload.params,
        response: {
          [P.upload.status]: P.upload.response,
          400: ErrorResponse,
          ...linkErrors,
          409: ErrorResponse,
          413: ErrorResponse,
        },
      },
      handler: async (request, reply) => {
        // Before the body is read: a refused upload costs no bytes.
        const folderId = await links.uploadFolder(request.params.token, request.cookies);
        return withFilePart(request, async (part) =>
          reply
            .status(P.upload.status)
            .send(await links.upload(folderId, { ...part, context: { actor: null, ...requestContext(request) } })),
        );
      },
    });
  });
}

import type { EventEmitter } from '../../events';
import { changeBy, requestContext } from '../../lib/http/request-context';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ENDPOINTS, NEXT_CURSOR_HEADER, type UploadPlacementQuery } from '@atrium/contracts';
import { sendBlob, sendThumbnail } from '../../lib/http/send-blob';
import { withFilePart } from '../../lib/multipart';
import { presentFile } from './files.presenter';
import type { FilesService } from './files.service';
import type { UploadTarget } from './stored-file';
import type { UserActor } from '../../auth/actor';
import { routesOf } from '../../plugins/route';

const user = { access: 'user' } as const;
const E = ENDPOINTS.files;

/** What a multipart form may carry beside the file's bytes (boundaries, part headers, a long name). */
const MULTIPART_SLACK_BYTES = 16 * 1024;

const wantsJson = (request: FastifyRequest) => /\bapplication\/json\b/i.test(request.headers.accept ?? '');

export interface FilesRouteOptions {
  files: FilesService;
  /** Where an upload goes, checked before the body is read (`FoldersService.uploadTarget`). */
  uploadTarget: (actor: UserActor, place: UploadPlacementQuery) => Promise<UploadTarget>;
  maxUploadBytes: number;
  events: EventEmitter;
}

/**
 * The file service of docs/PRODUCT.md#api-paths (base path /api). Registered in its own
 * scope so the multipart parser applies to these routes only.
 */
export async function registerFileRoutes(
  app: FastifyInstance,
  { files, uploadTarget, maxUploadBytes, events }: FilesRouteOptions,
) {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: maxUploadBytes + 1, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 25, headerPairs: 100 },
    });
    const serve = routesOf(scope, { config: user, tags: ['files'] });

    serve(E.upload, {
      summary:
        'Upload a file (multipart field "file") into folderId, the root of workspaceId, or the personal space of userId (default: your own); a taken name: onConflict=rename (default, "name (1).ext"), replace (a new version of that file, same id) or fail (409); text answer with the id, JSON with Accept: application/json',
      errors: [400, 403, 404, 409, 413],
      handler: async (request, reply) => {
        const caller = await request.requireUser();
        // Before the body is read: a refused upload costs no bytes.
        const { onConflict, ...place } = request.query;
        const target = await uploadTarget(caller, place);
        // The declared length answers before any byte is read (docs/PRODUCT.md#upload-queue): a body that cannot
        // fit the limit or the quota, even less the form's own lines, is refused at once.
        const declared = Number(request.headers['content-length'] ?? 0) - MULTIPART_SLACK_BYTES;
        if (declared > maxUploadBytes) throw files.tooLargeError();
        if (declared > (await files.remainingQuota(target))) throw await files.quotaErrorOf(target);
        return withFilePart(request, async (part) => {
          const record = await files.ingest(target, {
            ...part,
            onConflict,
            context: { actor: caller.ownerKey, ...requestContext(request) },
          });
          if (wantsJson(request)) return record;
          // Text, as the API's first clients read it; the schema above documents the JSON variant.
          return (reply as FastifyReply)
            .type('text/plain; charset=utf-8')
            .send(`File uploaded successfully with ID: ${record.id}`);
        });
      },
    });

    serve(E.list, {
      summary: `A user's files, newest first. With ?limit= the next page's cursor comes in the ${NEXT_CURSOR_HEADER} header`,
      errors: [403],
      handler: async (request, reply) => {
        const caller = await request.requireUser();
        const page = await files.list(caller, request.params.userId, request.query);
        if (page.nextCursor) {
          const next = new URLSearchParams({ cursor: page.nextCursor });
          if (request.query.limit) next.set('limit', String(request.query.limit));
          void reply
            .header(NEXT_CURSOR_HEADER, page.nextCursor)
            .header(
              'link',
              `</api/files/user/${encodeURIComponent(request.params.userId)}?${next.toString()}>; rel="next"`,
            );
        }
        return page.files;
      },
    });

    serve(E.stats, {
      summary: "A user's file count and total size",
      errors: [403],
      handler: async (request) => files.stats(await request.requireUser(), request.params.userId),
    });

    serve(E.download, {
      summary: 'The file bytes (Range, ETag, If-None-Match, If-Modified-Since); ?inline=1 for media sources',
      handler: async (request, reply) => {
        const file = await files.get(await request.requireUser(), request.params.id);
        const inline = request.query.inline === '1' || request.query.inline === 'true';
        return sendBlob(request, reply, files.blobOf(file), { disposition: inline ? 'inline' : 'attachment' });
      },
    });

    serve(E.thumbnail, {
      summary:
        'A WebP thumbnail of an image, a PDF’s first page or a video’s poster frame (made once, then cached; 404 without its engine)',
      handler: async (request, reply) =>
        sendThumbnail(request, reply, await files.thumbnail(await request.requireUser(), request.params.id)),
    });

    serve(E.versions, {
      summary: "A file's older versions, newest first (size, date, who uploaded each)",
      errors: [404],
      handler: async (request) => files.versions(await request.requireUser(), request.params.id),
    });

    serve(E.versionContent, {
      summary: 'The bytes of an older version (Range, ETag, If-None-Match, If-Modified-Since), named as the file',
      handler: async (request, reply) => {
        const { id, versionId } = request.params;
        return sendBlob(request, reply, await files.versionBlob(await request.requireUser(), id, versionId), {
          disposition: 'attachment',
        });
      },
    });

    serve(E.restoreVersion, {
      summary: 'Make an older version the current content (the current one becomes a version); same file id',
      errors: [403, 404, 409],
      handler: async (request) => {
        const { id, versionId } = request.params;
        return files.restoreVersion(await request.requireUser(), id, versionId, requestContext(request));
      },
    });

    serve(E.file, {
      summary: 'Existence check and metadata of one file',
      errors: [404],
      handler: async (request) => presentFile(await files.get(await request.requireUser(), request.params.id)),
    });

    serve(E.update, {
      summary: 'Rename a file and/or move it into another folder (of any space you may write to)',
      errors: [400, 403, 404, 409, 413],
      handler: async (request) =>
        files.update(await request.requireUser(), request.params.id, request.body, requestContext(request)),
    });

    serve(E.delete, {
      summary: 'Delete a file: it moves to the trash of its space (the path carries the file id)',
      errors: [404],
      handler: async (request) => {
        const actor = await request.requireUser();
        const removed = await files.remove(actor, request.params.id);
        await events.emit('file.deleted', changeBy(request, actor, { target: `file:${removed.id}` }));
        return removed;
      },
    });
  });
}

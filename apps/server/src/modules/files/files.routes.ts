import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  DeleteFileResponse,
  DownloadQuery,
  ErrorResponse,
  FileIdParams,
  FileList,
  FileListQuery,
  FileRecord,
  FileUserParams,
  NEXT_CURSOR_HEADER,
  UploadFileResponse,
  UploadQuery,
  UserFileStats,
} from '@atrium/contracts';
import { AppError } from '../../errors';
import { multipartFailure } from '../../lib/multipart';
import { contentDisposition } from './file-names';
import type { FileRow } from './files.repository';
import { presentFile, type FilesService } from './files.service';
import { parseRange } from './http-range';

const user = { access: 'user' } as const;

const etagOf = (row: FileRow) => `"${row.sha256}"`;

/** HTTP dates have second precision: compare at that precision. */
const lastModifiedOf = (row: FileRow) => new Date(Math.floor(Date.parse(row.upload_date) / 1000) * 1000);

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/** RFC 9110 §13.2.2: If-None-Match wins over If-Modified-Since. */
function isNotModified(request: FastifyRequest, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch) return etagMatches(ifNoneMatch, etag);
  const ifModifiedSince = request.headers['if-modified-since'];
  if (ifModifiedSince) {
    const since = Date.parse(ifModifiedSince);
    return Number.isFinite(since) && lastModified.getTime() <= since;
  }
  return false;
}

const contentTypeHeader = (type: string) =>
  type.startsWith('text/') || type === 'application/json' ? `${type}; charset=utf-8` : type;

const wantsJson = (request: FastifyRequest) => /\bapplication\/json\b/i.test(request.headers.accept ?? '');

async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  files: FilesService,
  row: FileRow,
  inline: boolean,
) {
  const etag = etagOf(row);
  const lastModified = lastModifiedOf(row);
  void reply.headers({
    etag,
    'last-modified': lastModified.toUTCString(),
    'cache-control': 'private, no-cache',
    'accept-ranges': 'bytes',
  });
  if (isNotModified(request, etag, lastModified)) return reply.status(304).send();

  const ifRange = typeof request.headers['if-range'] === 'string' ? request.headers['if-range'] : undefined;
  const rangeHeader =
    ifRange && !etagMatches(ifRange, etag) && ifRange !== lastModified.toUTCString()
      ? undefined
      : request.headers.range;
  const range = parseRange(rangeHeader, row.size);
  if (range.kind === 'unsatisfiable') {
    throw new AppError('RANGE_NOT_SATISFIABLE', `The requested range is not within the file's ${row.size} bytes.`, {
      headers: { 'content-range': `bytes */${row.size}` },
    });
  }
  void reply.headers({
    'content-type': contentTypeHeader(row.content_type),
    'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', row.file_name),
    // The file is data, never a page of this site; the preview page may frame it
    // (Chromium's PDF viewer refuses to run in a sandbox, so PDFs are not sandboxed).
    'content-security-policy': `default-src 'none'; img-src 'self'; media-src 'self'; frame-ancestors 'self'${
      row.content_type === 'application/pdf' ? '' : '; sandbox'
    }`,
    'x-frame-options': 'SAMEORIGIN',
  });
  const byteRange = range.kind === 'partial' ? range.range : undefined;
  if (byteRange) {
    void reply
      .status(206)
      .header('content-range', `bytes ${byteRange.start}-${byteRange.end}/${row.size}`)
      .header('content-length', byteRange.end - byteRange.start + 1);
  } else {
    void reply.header('content-length', row.size);
  }
  // HEAD: the headers above without reading the bytes (an empty stream keeps Content-Length as set).
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  return reply.send(await files.openContent(row, byteRange));
}

export interface FilesRouteOptions {
  files: FilesService;
  maxUploadBytes: number;
}

/**
 * The file service of docs/PRODUCT.md#api-paths (base path /api). Registered in its own
 * scope so the multipart parser applies to these routes only.
 */
export async function registerFileRoutes(app: FastifyInstance, { files, maxUploadBytes }: FilesRouteOptions) {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: maxUploadBytes + 1, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 25, headerPairs: 100 },
    });
    const typed = scope.withTypeProvider<ZodTypeProvider>();

    typed.post(
      '/api/files/upload',
      {
        config: user,
        schema: {
          tags: ['files'],
          summary:
            'Upload a file (multipart field "file"); text answer with the new id, JSON with Accept: application/json',
          querystring: UploadQuery,
          response: { 200: UploadFileResponse, 400: ErrorResponse, 403: ErrorResponse, 413: ErrorResponse },
        },
      },
      async (request, reply) => {
        const caller = await request.requireUser();
        const ownerKey = request.query.userId ?? caller.ownerKey;
        files.assertActsFor(caller, ownerKey);
        if (!request.isMultipart()) {
          throw new AppError('BAD_REQUEST', 'Send the file as multipart/form-data in a field named "file".');
        }
        const part = await request.file().catch((error: unknown) => {
          throw multipartFailure(error);
        });
        if (!part || part.fieldname !== 'file') {
          part?.file.resume();
          throw new AppError('BAD_REQUEST', 'Choose a file to upload (form field "file").');
        }
        // A client that goes away mid-upload must not leave the stream hanging.
        const onClose = () => {
          if (!request.raw.complete) part.file.destroy(new Error('The client disconnected during the upload.'));
        };
        request.raw.once('close', onClose);
        try {
          const record = await files.upload(caller, ownerKey, { fileName: part.filename, stream: part.file });
          if (wantsJson(request)) return record;
          // Text, as the API's first clients read it; the schema above documents the JSON variant.
          return (reply as FastifyReply)
            .type('text/plain; charset=utf-8')
            .send(`File uploaded successfully with ID: ${record.id}`);
        } finally {
          request.raw.off('close', onClose);
        }
      },
    );

    typed.get(
      '/api/files/user/:userId',
      {
        config: user,
        schema: {
          tags: ['files'],
          summary: `A user's files, newest first. With ?limit= the next page's cursor comes in the ${NEXT_CURSOR_HEADER} header`,
          params: FileUserParams,
          querystring: FileListQuery,
          response: { 200: FileList, 403: ErrorResponse },
        },
      },
      async (request, reply) => {
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
    );

    typed.get(
      '/api/files/user-stats/:userId',
      {
        config: user,
        schema: {
          tags: ['files'],
          summary: "A user's file count and total size",
          params: FileUserParams,
          response: { 200: UserFileStats, 403: ErrorResponse },
        },
      },
      async (request) => files.stats(await request.requireUser(), request.params.userId),
    );

    typed.get(
      '/api/files/download/:id',
      {
        config: user,
        schema: {
          tags: ['files'],
          summary: 'The file bytes (Range, ETag, If-None-Match, If-Modified-Since); ?inline=1 for media sources',
          params: FileIdParams,
          querystring: DownloadQuery,
        },
      },
      async (request, reply) => {
        const row = await files.get(await request.requireUser(), request.params.id);
        const inline = request.query.inline === '1' || request.query.inline === 'true';
        return sendFile(request, reply, files, row, inline);
      },
    );

    typed.get(
      '/api/files/:id/thumbnail',
      {
        config: user,
        schema: {
          tags: ['files'],
          summary: 'A WebP thumbnail of an image (made once, then cached)',
          params: FileIdParams,
        },
      },
      async (request, reply) => {
        const { row, stream } = await files.thumbnail(await request.requireUser(), request.params.id);
        const etag = `"thumb-${row.sha256}"`;
        void reply.headers({ etag, 'cache-control': 'private, max-age=86400' });
        if (isNotModified(request, etag, lastModifiedOf(row))) {
          stream.destroy();
          return reply.status(304).send();
        }
        return reply.type('image/webp').send(stream);
      },
    );

    typed.get(
      '/api/files/:id',
      {
        config: user,
        schema: {
          tags: ['files'],
          summary: 'Existence check and metadata of one file',
          params: FileIdParams,
          response: { 200: FileRecord, 404: ErrorResponse },
        },
      },
      async (request) => presentFile(await files.get(await request.requireUser(), request.params.id)),
    );

    typed.delete(
      '/api/files/user/:id',
      {
        config: user,
        schema: {
          tags: ['files'],
          summary: 'Delete a file (the path carries the file id)',
          params: FileIdParams,
          response: { 200: DeleteFileResponse, 404: ErrorResponse },
        },
      },
      async (request) => files.remove(await request.requireUser(), request.params.id),
    );
  });
}

/**
 * The one way stored bytes are sent: `sendBlob(request, reply, record)`, fed by a `BlobRecord` (size, etag, last
 * modified, content type, file name, `open(range)`): ETag and Last-Modified, conditional GET (304), one byte range
 * (206, `If-Range`, 416 in the JSON error shape), HEAD without reading, an RFC 6266 `Content-Disposition` and a
 * sandboxing CSP. `sendThumbnail` sends an image's WebP thumbnail, for private and public-link routes alike.
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ByteRange } from '../../adapters/blob-store';
import { AppError } from '../../errors';
import { contentDisposition } from './content-disposition';
import { parseRange } from './range';

/** What sending stored bytes needs to know, whoever asks for them (owner, member, share recipient, link bearer). */
export interface BlobRecord {
  size: number;
  /** A strong validator, quoted (`"<sha256>"`). */
  etag: string;
  lastModified: Date;
  contentType: string;
  fileName: string;
  /** Opens the bytes, whole or one range (the blob store's `get`). */
  open(range?: ByteRange): Promise<Readable>;
}

export interface SendBlobOptions {
  /** `inline` for previews and media sources, `attachment` (the default) for downloads. */
  disposition?: 'inline' | 'attachment';
  /** Default `private, no-cache`: revalidated with the ETag on each use. */
  cacheControl?: string;
}

/** HTTP dates have second precision: validators compare at that precision. */
export const httpDate = (date: Date | string): Date => new Date(Math.floor(new Date(date).getTime() / 1000) * 1000);

function etagMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/** Whether a conditional GET may be answered 304. RFC 9110 §13.2.2: If-None-Match wins over If-Modified-Since. */
export function isNotModified(request: FastifyRequest, etag: string, lastModified: Date): boolean {
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

/** The range `sendBlob` serves for this request (`If-Range` honoured: a changed file is sent whole). */
export function requestedRange(request: FastifyRequest, blob: Pick<BlobRecord, 'etag' | 'size' | 'lastModified'>) {
  const ifRange = typeof request.headers['if-range'] === 'string' ? request.headers['if-range'] : undefined;
  const rangeHeader =
    ifRange && !etagMatches(ifRange, blob.etag) && ifRange !== httpDate(blob.lastModified).toUTCString()
      ? undefined
      : request.headers.range;
  return parseRange(rangeHeader, blob.size);
}

/**
 * What a GET (or HEAD) through `sendBlob` will send: nothing (HEAD, 304, 416), the whole file, or one range.
 * Public links count their downloads and bytes from it before sending.
 */
export function plannedSend(
  request: FastifyRequest,
  blob: Pick<BlobRecord, 'etag' | 'size' | 'lastModified'>,
): { kind: 'nothing' } | { kind: 'bytes'; start: number; length: number } {
  if (request.method !== 'GET' || isNotModified(request, blob.etag, httpDate(blob.lastModified))) {
    return { kind: 'nothing' };
  }
  const range = requestedRange(request, blob);
  if (range.kind === 'unsatisfiable') return { kind: 'nothing' };
  if (range.kind === 'full') return { kind: 'bytes', start: 0, length: blob.size };
  return { kind: 'bytes', start: range.range.start, length: range.range.end - range.range.start + 1 };
}

/**
 * Answers a request for stored bytes: validators (ETag, Last-Modified), conditional GET (304), one byte range
 * (206, `If-Range`, 416 outside the bytes), HEAD without reading, an RFC 6266 `Content-Disposition`, and headers
 * that keep the bytes data, never a page of this site (a sandboxing CSP; PDFs are not sandboxed because Chromium's
 * viewer refuses to run in a sandbox, and the preview page may frame them). The one way the server sends a file.
 */
export async function sendBlob(
  request: FastifyRequest,
  reply: FastifyReply,
  blob: BlobRecord,
  options: SendBlobOptions = {},
): Promise<FastifyReply> {
  const { etag, size } = blob;
  const lastModified = httpDate(blob.lastModified);
  void reply.headers({
    etag,
    'last-modified': lastModified.toUTCString(),
    'cache-control': options.cacheControl ?? 'private, no-cache',
    'accept-ranges': 'bytes',
  });
  if (isNotModified(request, etag, lastModified)) return reply.status(304).send();

  const range = requestedRange(request, blob);
  if (range.kind === 'unsatisfiable') {
    throw new AppError('RANGE_NOT_SATISFIABLE', `The requested range is not within the file's ${size} bytes.`, {
      headers: { 'content-range': `bytes */${size}` },
    });
  }
  void reply.headers({
    'content-type': contentTypeHeader(blob.contentType),
    'content-disposition': contentDisposition(options.disposition ?? 'attachment', blob.fileName),
    'content-security-policy': `default-src 'none'; img-src 'self'; media-src 'self'; frame-ancestors 'self'${
      blob.contentType === 'application/pdf' ? '' : '; sandbox'
    }`,
    'x-frame-options': 'SAMEORIGIN',
  });
  const byteRange = range.kind === 'partial' ? range.range : undefined;
  if (byteRange) {
    void reply
      .status(206)
      .header('content-range', `bytes ${byteRange.start}-${byteRange.end}/${size}`)
      .header('content-length', byteRange.end - byteRange.start + 1);
  } else {
    void reply.header('content-length', size);
  }
  // HEAD: the headers above without reading the bytes (an empty stream keeps Content-Length as set).
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  return reply.send(await blob.open(byteRange));
}

/**
 * Sends a stored image's WebP thumbnail, cached privately for a day and validated by the image's hash (304 when the
 * browser's copy is current: the stream is then closed unread). One place for private and public-link thumbnails.
 */
export function sendThumbnail(
  request: FastifyRequest,
  reply: FastifyReply,
  thumbnail: { file: { sha256: string; uploadDate: Date | string }; stream: Readable },
): FastifyReply {
  const { file, stream } = thumbnail;
  const etag = `"thumb-${file.sha256}"`;
  void reply.headers({ etag, 'cache-control': 'private, max-age=86400' });
  if (isNotModified(request, etag, httpDate(file.uploadDate))) {
    stream.destroy();
    return reply.status(304).send();
  }
  return reply.type('image/webp').send(stream);
}

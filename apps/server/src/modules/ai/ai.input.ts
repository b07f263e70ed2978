import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { AppError } from '../../errors';
import { MALFORMED_MULTIPART_MESSAGE, multipartFailure } from '../../lib/multipart';
import type { SessionUser } from '../auth';
import type { FileSource } from './file-source';

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/**
 * Body parsing for the AI routes of one scope: multipart, and any other
 * content type as raw bytes (JSON keeps its own parser). The route's
 * `bodyLimit` bounds raw bodies; `readUpload` bounds multipart files.
 */
export async function registerMediaParsers(scope: FastifyInstance, maxFileBytes: number) {
  await scope.register(multipart, { limits: { fileSize: maxFileBytes, files: 1, fields: 10, fieldSize: 64 * 1024 } });
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  scope.addContentTypeParser(['application/ssml+xml', 'text/plain'], { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
}

export interface Upload {
  buffer: Buffer;
  /** Other multipart text fields (e.g. OpenAI's `model`). */
  fields: Record<string, string>;
}

/**
 * The media of an AI request: raw body bytes, the multipart field `file`, or
 * (with a user and `?fileId=`) a stored file the caller may read.
 */
export async function readUpload(
  request: FastifyRequest,
  options: { what: 'audio' | 'image'; maxBytes: number; user?: SessionUser; files?: FileSource },
): Promise<Upload> {
  const fileId = (request.query as { fileId?: string } | undefined)?.fileId;
  if (fileId !== undefined && options.user && options.files) {
    const file = await options.files.open(options.user, fileId, options.maxBytes);
    return { buffer: file.buffer, fields: {} };
  }
  if (request.isMultipart()) {
    const fields: Record<string, string> = {};
    let buffer: Buffer | undefined;
    try {
      for await (const part of request.parts({ limits: { fileSize: options.maxBytes } })) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file' || buffer) {
            await part.toBuffer();
            continue;
          }
          buffer = await part.toBuffer();
        } else if (typeof part.value === 'string') {
          fields[part.fieldname] = part.value;
        }
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE')
        throw new AppError('PAYLOAD_TOO_LARGE', `The ${options.what} file is larger than ${mb(options.maxBytes)}.`);
      if (code?.startsWith('FST_')) throw new AppError('BAD_REQUEST', MALFORMED_MULTIPART_MESSAGE, { cause: error });
      throw multipartFailure(error);
    }
    if (!buffer)
      throw new AppError('BAD_REQUEST', `Please send the ${options.what} in a multipart field named "file".`);
    return { buffer, fields };
  }
  const body = request.body;
  if (Buffer.isBuffer(body)) return { buffer: body, fields: {} };
  if (body === undefined || body === null || body === '') return { buffer: Buffer.alloc(0), fields: {} };
  throw new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    options.what === 'audio' ? 'Please send a WAV audio file (audio/wav).' : 'Please upload a PNG or JPG format image.',
  );
}

/** A body-too-large parser error, reworded for the route's input. */
export function tooLargeMessage(what: string, maxBytes: number) {
  return `The ${what} is larger than ${mb(maxBytes)}.`;
}

import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../errors';

export const MALFORMED_MULTIPART_MESSAGE = 'The multipart form could not be read.';

/**
 * What a failure while reading a multipart body means for the client. busboy reports a missing or
 * mismatched boundary, a garbage body and a form that ends early as plain Errors: the client's
 * mistake, so 400 `BAD_REQUEST`, never a 500. AppErrors and @fastify/multipart's own 4xx errors
 * (its limits) pass unchanged.
 */
export function multipartFailure(error: unknown): Error {
  if (isAppError(error)) return error;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (error instanceof Error && typeof status === 'number' && status >= 400 && status < 500) return error;
  return new AppError('BAD_REQUEST', MALFORMED_MULTIPART_MESSAGE, { cause: error });
}

/** The uploaded file of a multipart request: its client-side name and its bytes, read as they arrive. */
export interface FilePart {
  fileName: string;
  stream: Readable;
}

/**
 * Reads the form field `file` of a multipart request and hands it to `use` (which stores it). Refuses a request
 * that is not multipart, or whose first part is not `file`, with 400; a client that goes away mid-upload ends the
 * stream with an error so `use` does not wait for bytes that never come. One place for every upload route.
 */
export async function withFilePart<T>(request: FastifyRequest, use: (part: FilePart) => Promise<T>): Promise<T> {
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
  const onClose = () => {
    if (!request.raw.complete) part.file.destroy(new Error('The client disconnected during the upload.'));
  };
  request.raw.once('close', onClose);
  try {
    return await use({ fileName: part.filename, stream: part.file });
  } finally {
    request.raw.off('close', onClose);
  }
}

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

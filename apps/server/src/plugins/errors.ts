import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorResponse } from '@atrium/contracts';
import { AppError, isAppError } from '../errors';

/** Paths that always answer JSON, never the SPA. */
export const isApiPath = (url: string): boolean => /^\/(api|public\/api)(\/|$|\?)/.test(url);

/**
 * The 404 of a path no route answers: `ROUTE_NOT_FOUND` naming the method and path under the API paths,
 * `NOT_FOUND` elsewhere.
 */
export const routeNotFound = (request: FastifyRequest): AppError =>
  isApiPath(request.url)
    ? new AppError('ROUTE_NOT_FOUND', `There is no API route ${request.method} ${request.url.split('?')[0]}.`)
    : new AppError('NOT_FOUND');

const FASTIFY_CODES: Record<string, AppError['code']> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_VALIDATION: 'VALIDATION_FAILED',
  FST_ERR_NOT_FOUND: 'ROUTE_NOT_FOUND',
};

const STATUS_CODES: Record<number, AppError['code']> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** Turns anything thrown into an AppError; unknown errors become INTERNAL. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const details = error.validation.map((issue) => ({
      path: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].filter(Boolean).join('.'),
      message: issue.message ?? 'is not valid',
    }));
    const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
    return new AppError('VALIDATION_FAILED', `The request is not valid: ${summary}`, { details });
  }
  const fastifyError = error as Partial<FastifyError>;
  const mapped = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (mapped === 'INVALID_JSON') return new AppError(mapped);
  if (mapped) return new AppError(mapped, fastifyError.message);
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    return new AppError(STATUS_CODES[status] ?? 'BAD_REQUEST', fastifyError.message);
  }
  return new AppError('INTERNAL', undefined, { cause: error });
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const body: ErrorResponse = { error: { code: error.code, message: error.message, requestId: request.id } };
  if (error.details) body.error.details = error.details;
  if (error.reason) body.error.reason = error.reason;
  if (error.headers) void reply.headers(error.headers);
  return reply.status(error.statusCode).type('application/json; charset=utf-8').send(body);
}

/** One JSON error shape for every failure, including unknown routes and body parser errors. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.statusCode >= 500) {
      const cause = isResponseSerializationError(error) ? error : (appError.cause ?? error);
      request.log.error({ err: cause }, 'request failed');
    } else {
      request.log.info({ code: appError.code, statusCode: appError.statusCode }, appError.message);
    }
    return sendError(request, reply, appError);
  });
}

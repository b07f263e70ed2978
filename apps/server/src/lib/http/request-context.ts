import type { FastifyRequest } from 'fastify';

/** Where a request came from, as an audited change keeps it (the audit log, docs/PRODUCT.md#admin-console-users-and-audit-log). */
export interface RequestContext {
  ip?: string | undefined;
  userAgent?: string | undefined;
  requestId?: string | undefined;
}

/** The request's IP, user agent and request id: spread into an emitted change (`...requestContext(request)`). */
export const requestContext = (request: FastifyRequest): RequestContext => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
  requestId: request.id,
});

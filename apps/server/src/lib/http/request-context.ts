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

/**
 * An audited change made by a signed-in `actor` on this request: `events.emit(action, changeBy(request, actor, {
 * target, details }))`.
 */
export const changeBy = <T extends object>(
  request: FastifyRequest,
  actor: { ownerKey: string },
  change: T,
): T & RequestContext & { actor: string } => ({ actor: actor.ownerKey, ...change, ...requestContext(request) });

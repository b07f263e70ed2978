import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Why a state-changing request is refused, or undefined when it may proceed.
 * Browsers send `Sec-Fetch-Site` and/or `Origin` on every cross-origin POST;
 * a request with neither comes from a non-browser client (curl, a server, a
 * test), which cannot ride on a user's cookies, so it passes.
 */
export function csrfRejection(
  headers: { origin?: string | undefined; 'sec-fetch-site'?: string | undefined },
  siteOrigin: string,
): string | undefined {
  const fetchSite = headers['sec-fetch-site']?.toLowerCase();
  // same-site is still another origin (a sibling sub-domain): refuse it too.
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return `Sec-Fetch-Site: ${fetchSite}`;
  const origin = headers.origin;
  if (origin !== undefined && origin !== siteOrigin) return `Origin ${origin}`;
  return undefined;
}

/**
 * CSRF protection on top of SameSite=Lax cookies: every POST, PUT, PATCH and
 * DELETE from a browser must come from the site's own origin (PUBLIC_URL).
 */
export function registerCsrfProtection(app: FastifyInstance, publicUrl: string) {
  const siteOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!STATE_CHANGING.has(request.method)) return;
    const reason = csrfRejection(
      {
        origin: request.headers.origin,
        'sec-fetch-site': request.headers['sec-fetch-site'] as string | undefined,
      },
      siteOrigin,
    );
    if (reason) {
      request.log.warn({ reason, url: request.url }, 'cross-site request refused');
      throw new AppError('CSRF_REJECTED', 'Cross-site request refused.');
    }
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import { requestOrigin, type SiteOrigin } from '../lib/site-origin';

// The WebDAV methods that change something count too (modules/dav: /dav/ accepts the session cookie).
const STATE_CHANGING = new Set([
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'MKCOL',
  'COPY',
  'MOVE',
  'PROPPATCH',
  'LOCK',
  'UNLOCK',
]);

/**
 * Why a state-changing request is refused, or undefined when it may proceed.
 * Browsers send `Sec-Fetch-Site` and/or `Origin` on every cross-origin POST;
 * a request with neither comes from a non-browser client (curl, a server, a
 * test), which cannot ride on a user's cookies, so it passes.
 */
export function csrfRejection(
  headers: { origin?: string | undefined; 'sec-fetch-site'?: string | undefined },
  siteOrigins: string | readonly string[],
): string | undefined {
  const fetchSite = headers['sec-fetch-site']?.toLowerCase();
  // same-site is still another origin (a sibling sub-domain): refuse it too.
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return `Sec-Fetch-Site: ${fetchSite}`;
  const origin = headers.origin;
  const allowed = typeof siteOrigins === 'string' ? [siteOrigins] : siteOrigins;
  if (origin !== undefined && !allowed.includes(origin)) return `Origin ${origin}`;
  return undefined;
}

/**
 * CSRF protection on top of SameSite=Lax cookies: every POST, PUT, PATCH and
 * DELETE from a browser must come from the site's own origin. With PUBLIC_URL
 * set that is PUBLIC_URL's origin only; without it, the origin the request
 * itself came to (its `Host`), so http://127.0.0.1:3000 or a LAN address work.
 * A browser on this server under another address than PUBLIC_URL gets 403
 * PUBLIC_URL_MISMATCH naming both addresses (logged once per address).
 */
export function registerCsrfProtection(app: FastifyInstance, site: SiteOrigin) {
  const warned = new Set<string>();
  app.addHook('onRequest', (request, _reply, done) => {
    if (!STATE_CHANGING.has(request.method)) return done();
    try {
      checkOrigin(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  });

  /** Throws CSRF_REJECTED (or PUBLIC_URL_MISMATCH) for a state-changing request from another origin. */
  function checkOrigin(request: FastifyRequest): void {
    const headers = {
      origin: request.headers.origin,
      'sec-fetch-site': request.headers['sec-fetch-site'] as string | undefined,
    };
    const own = requestOrigin(request);
    const allowed = site.fixed ? [site.fixed] : [site.fallback, ...(own ? [own] : [])];
    const reason = csrfRejection(headers, allowed);
    if (!reason) return;
    if (site.fixed && own && headers.origin === own && csrfRejection(headers, own) === undefined) {
      if (warned.size < 100 && !warned.has(own)) {
        warned.add(own);
        request.log.warn(
          { origin: own, publicUrl: site.fixed },
          `A browser uses Atrium at ${own}, but PUBLIC_URL is ${site.fixed}: its sign-ins and changes are refused. Open ${site.fixed}, or set PUBLIC_URL to the address browsers use.`,
        );
      }
      throw new AppError(
        'PUBLIC_URL_MISMATCH',
        `This page was opened at ${own}, but this server only accepts sign-ins at ${site.fixed} (its PUBLIC_URL). Open ${site.fixed} instead, or ask the administrator to set PUBLIC_URL to ${own}.`,
        {
          details: [
            { path: 'publicUrl', message: site.fixed },
            { path: 'origin', message: own },
          ],
        },
      );
    }
    request.log.warn({ reason, url: request.url }, 'cross-site request refused');
    throw new AppError('CSRF_REJECTED', 'Cross-site request refused.');
  }
}

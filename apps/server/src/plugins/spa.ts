import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isApiPath, routeNotFound, sendError } from './errors';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built SPA: hashed assets with long-lived caching, everything
 * else revalidated, and index.html for client routes. API paths never fall
 * back to the SPA: an unknown API route is a JSON 404.
 */
export async function registerSpa(app: FastifyInstance, webDist: string | undefined) {
  const indexFile = webDist ? path.join(webDist, 'index.html') : undefined;
  const hasSpa = Boolean(indexFile && existsSync(indexFile));

  if (hasSpa && webDist) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The web build writes .br and .gz copies of its text assets.
      preCompressed: true,
      cacheControl: false,
      etag: true,
      lastModified: true,
      setHeaders(reply, filePath) {
        const relative = path.relative(webDist, filePath);
        void reply.header('cache-control', relative.startsWith(`assets${path.sep}`) ? IMMUTABLE : 'no-cache');
      },
    });
  }

  // Pages prerendered at build time (apps/web/prerender.mjs): dist/pages/<page>.html (public pages, and the
  // dashboard's frame with its chunks preloaded for the pages people land on, e.g. dashboard/files.html), the
  // not-found page (404.html) and the SPA's route patterns (routes.json); dist/shell/dashboard.html, the dashboard's
  // frame for every other path below /dashboard.
  const prerendered = new Map<string, string>();
  const pagesDir = webDist ? path.join(webDist, 'pages') : undefined;
  const shellFile = webDist ? path.join(webDist, 'shell', 'dashboard.html') : undefined;
  const dashboardShell = hasSpa && shellFile && existsSync(shellFile) ? shellFile : undefined;
  let notFoundPage: string | undefined;
  let routePatterns: string[][] | undefined;
  if (hasSpa && pagesDir && existsSync(pagesDir)) {
    for (const file of readdirSync(pagesDir, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.html')) continue;
      const name = file.slice(0, -'.html'.length).split(path.sep).join('/');
      if (name === '404') notFoundPage = path.join(pagesDir, file);
      else prerendered.set(name === 'index' ? '/' : `/${name}`, path.join(pagesDir, file));
    }
    const routesFile = path.join(pagesDir, 'routes.json');
    if (existsSync(routesFile)) {
      const patterns = JSON.parse(readFileSync(routesFile, 'utf8')) as string[];
      routePatterns = patterns.map((pattern) => pattern.split('/').filter(Boolean));
    }
  }
  const pageCache = new Map<string, Buffer>();
  const readPage = async (file: string) => {
    const html = pageCache.get(file) ?? (await readFile(file));
    pageCache.set(file, html);
    return html;
  };

  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage =
      hasSpa &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(request.url) &&
      !path.extname(request.url.split('?')[0] ?? '');
    if (!wantsPage || !indexFile) {
      return sendError(request, reply, routeNotFound(request));
    }
    const pathname = (request.url.split('?')[0] ?? '/').replace(/(.)\/+$/, '$1');
    if (isLinkPagePath(pathname)) {
      // A public link's page: the SPA's index, kept out of search engines, its token never sent on as a Referer.
      return reply
        .code(200)
        .type('text/html; charset=utf-8')
        .headers({ 'cache-control': 'no-cache', 'x-robots-tag': 'noindex, nofollow', 'referrer-policy': 'no-referrer' })
        .send(noindex(await readPage(indexFile)));
    }
    // A prerendered page; else, below /dashboard, the dashboard's frame; else a route of the SPA (index.html);
    // else 404. Unknown paths inside the dashboard get its frame with 404, so the dashboard shows its own
    // not-found page after sign-in.
    const known = !routePatterns || routePatterns.some((pattern) => matchesRoute(pattern, pathname));
    const pageFile =
      prerendered.get(pathname) ?? (isDashboardPath(pathname) ? dashboardShell : known ? undefined : notFoundPage);
    void reply.code(known ? 200 : 404);
    if (pageFile) {
      const brotli = /\bbr\b/.test(String(request.headers['accept-encoding'] ?? '')) && existsSync(`${pageFile}.br`);
      void reply.header('vary', 'accept-encoding');
      if (brotli) void reply.header('content-encoding', 'br');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(await readPage(brotli ? `${pageFile}.br` : pageFile));
    }
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(await readPage(indexFile));
  });
}

/** `/s/{token}`: a public link's page (docs/PRODUCT.md#public-links), whatever the SPA's route table says. */
export const isLinkPagePath = (pathname: string) => /^\/s\/[^/]+$/.test(pathname);

const NOINDEX_META = '<meta name="robots" content="noindex, nofollow">';
const noindexCache = new WeakMap<Buffer, string>();
/** The page with a robots `noindex` meta tag (added once per page read). */
function noindex(html: Buffer): string {
  const cached = noindexCache.get(html);
  if (cached) return cached;
  const text = html.toString('utf8');
  const tagged = text.includes('name="robots"')
    ? text.replace(/<meta name="robots"[^>]*>/, NOINDEX_META)
    : /<head[^>]*>/i.test(text)
      ? text.replace(/<head([^>]*)>/i, `<head$1>${NOINDEX_META}`)
      : text.replace(/^(\s*<!doctype[^>]*>)?/i, `$1${NOINDEX_META}`);
  noindexCache.set(html, tagged);
  return tagged;
}

const isDashboardPath = (pathname: string) => pathname === '/dashboard' || pathname.startsWith('/dashboard/');

/** Whether a path matches a route pattern of React Router (segments; `:param`, `:param?` optional). */
export function matchesRoute(pattern: string[], pathname: string): boolean {
  const segments = pathname.split('/').filter(Boolean);
  let index = 0;
  for (const part of pattern) {
    const segment = segments[index];
    if (part.startsWith(':') && part.endsWith('?')) {
      if (segment !== undefined) index += 1;
    } else if (segment === undefined || (!part.startsWith(':') && part.toLowerCase() !== segment.toLowerCase())) {
      return false;
    } else {
      index += 1;
    }
  }
  return index === segments.length;
}

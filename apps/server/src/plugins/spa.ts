import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';
import { isApiPath, sendError } from './errors';

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

  // Public pages prerendered at build time (apps/web/prerender.mjs): dist/pages/<page>.html.
  const prerendered = new Map<string, string>();
  const pagesDir = webDist ? path.join(webDist, 'pages') : undefined;
  if (hasSpa && pagesDir && existsSync(pagesDir)) {
    for (const file of readdirSync(pagesDir)) {
      if (!file.endsWith('.html')) continue;
      const name = file.slice(0, -'.html'.length);
      prerendered.set(name === 'index' ? '/' : `/${name}`, path.join(pagesDir, file));
    }
  }
  const pageCache = new Map<string, Buffer>();

  let indexHtml: Buffer | undefined;
  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage =
      hasSpa &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(request.url) &&
      !path.extname(request.url.split('?')[0] ?? '');
    if (!wantsPage || !indexFile) {
      const code = isApiPath(request.url) ? 'ROUTE_NOT_FOUND' : 'NOT_FOUND';
      const message =
        code === 'ROUTE_NOT_FOUND'
          ? `There is no API route ${request.method} ${request.url.split('?')[0]}.`
          : undefined;
      return sendError(request, reply, new AppError(code, message));
    }
    const pathname = (request.url.split('?')[0] ?? '/').replace(/(.)\/+$/, '$1');
    const pageFile = prerendered.get(pathname);
    let html: Buffer;
    if (pageFile) {
      const brotli = /\bbr\b/.test(String(request.headers['accept-encoding'] ?? '')) && existsSync(`${pageFile}.br`);
      const file = brotli ? `${pageFile}.br` : pageFile;
      html = pageCache.get(file) ?? (await readFile(file));
      pageCache.set(file, html);
      void reply.header('vary', 'accept-encoding');
      if (brotli) void reply.header('content-encoding', 'br');
    } else {
      indexHtml ??= await readFile(indexFile);
      html = indexHtml;
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  });
}

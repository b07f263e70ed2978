import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers with a strict Content-Security-Policy: the SPA is built
 * with no inline script or style, so 'self' is enough. A module that serves
 * third-party HTML (for example an identity provider's login form) may set its
 * own policy on those responses.
 *
 * Helmet's headers do not depend on the request: its middleware runs once, here, and every response (including raw
 * and hijacked ones, such as the notification stream) gets the headers it set. `@fastify/helmet` rebuilt the
 * middleware, CSP parsing included, on every request; running helmet's dozen small middlewares per request was still
 * a tenth of a notification stream's set-up (docs/BENCHMARKS.md, notification fan-out over SSE).
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }) {
  const applyHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // blob: URLs are made by the page itself (AI previews, recordings, synthesized audio).
        connectSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(options.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Cross-origin isolation would block media previews opened from downloads.
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: options.https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  const headers: [string, string | readonly string[]][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) =>
      headers.push([name, typeof value === 'number' ? String(value) : value]),
    removeHeader: (name: string) => removed.push(name),
  };
  applyHeaders(
    {} as Parameters<typeof applyHeaders>[0],
    recorder as unknown as Parameters<typeof applyHeaders>[1],
    () => undefined,
  );
  app.addHook('onRequest', (_request, reply, done) => {
    const res = reply.raw;
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of headers) res.setHeader(name, value);
    done();
  });
}

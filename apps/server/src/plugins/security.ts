import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers with a strict Content-Security-Policy: the SPA is built
 * with no inline script or style, so 'self' is enough. A module that serves
 * third-party HTML (for example an identity provider's login form) may set its
 * own policy on those responses.
 *
 * Helmet's middleware is built once and applied to every response (including raw and hijacked ones, such as
 * the notification stream): `@fastify/helmet` rebuilt it, CSP parsing included, on every request.
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
  app.addHook('onRequest', (request, reply, done) => {
    applyHeaders(request.raw, reply.raw, () => done());
  });
}

import type { FastifyRequest } from 'fastify';

/**
 * The origin a browser used for this request: its scheme and `Host` (or the
 * `X-Forwarded-*` headers with TRUST_PROXY). Undefined when `Host` is missing
 * or is not a plain `host[:port]`.
 */
export function requestOrigin(request: Pick<FastifyRequest, 'host' | 'protocol'>): string | undefined {
  const host = request.host;
  if (!host || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) return undefined;
  try {
    return new URL(`${request.protocol}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/** The site's own origin, from PUBLIC_URL when it is set, else from each request. */
export interface SiteOrigin {
  /** PUBLIC_URL's origin when it is set (strict mode), else undefined. */
  readonly fixed: string | undefined;
  /** The default origin, `http://localhost:PORT`, used when a request has no usable `Host`. */
  readonly fallback: string;
  /** The origin sign-in callbacks and redirects of this request are built from. */
  of(request: Pick<FastifyRequest, 'host' | 'protocol'>): string;
}

export function createSiteOrigin(publicUrl: string, configured: boolean): SiteOrigin {
  const origin = new URL(publicUrl).origin;
  return {
    fixed: configured ? origin : undefined,
    fallback: origin,
    of: (request) => (configured ? origin : (requestOrigin(request) ?? origin)),
  };
}

/**
 * The public links module's face: links to a file or folder for anyone with the URL, optionally with a password,
 * an expiry or uploads (docs/PRODUCT.md#public-links).
 *
 * `links.service.ts`: owners and editors (the file or folder policy's `share`) create, list and revoke links
 * (`revoked_at`; the row stays); a bearer acts only through `auth/policies/link.ts` (`requireLink`: view, read,
 * upload). The token is 192 random bits, stored as is; a password is an scrypt hash (`lib/passwords.ts`).
 * `unlock-cookie.ts`: a stateless HMAC cookie per link, at most 24 h and never past the link's expiry, void when the
 * password changes. `link-maker-check.ts`: a link lends its maker's right to share and is suspended while that right is
 * gone (it works again once the right is back).
 *
 * Bytes go through `lib/http/send-blob.ts` as private downloads do; a file below a folder link's folder is checked with
 * one recursive CTE (`links.repository.ts` `isWithin`); folder listings reuse the folders service's `pageUnchecked`,
 * breadcrumbs cut at the link's folder; the zip is `lib/http/zip-stream.ts`. File drops are stored by
 * `ingestIntoFolder`. Links to trashed items answer 404 and work again after a restore. `plugins/spa.ts` answers
 * `/s/{token}` with `noindex` and `Referrer-Policy: no-referrer`; public routes are rate-limited
 * (`PUBLIC_LINK_RATE_LIMIT`, `UNLOCK_RATE_LIMIT`).
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import { createLinksRepository } from './links.repository';
import { registerLinksRoutes, type LinksRouteOptions } from './links.routes';
import { createLinkMakerCheck } from './link-maker-check';
import { createLinksService, type LinksServiceDeps } from './links.service';
import { createUnlocker } from './unlock-cookie';

export interface LinksModuleDeps
  extends
    Omit<LinksServiceDeps, 'repo' | 'unlocker'>,
    Pick<LinksRouteOptions, 'events' | 'maxUploadBytes' | 'secureCookies'> {
  db: Db;
  /** Signs the cookies that unlock a password-protected link. */
  sessionSecret: string;
}

export async function createLinksModule(
  app: FastifyInstance,
  { db, sessionSecret, events, maxUploadBytes, secureCookies, ...deps }: LinksModuleDeps,
) {
  const repo = createLinksRepository(db);
  const links = createLinksService({ ...deps, repo, unlocker: createUnlocker(sessionSecret) });
  await registerLinksRoutes(app, { links, events, maxUploadBytes, secureCookies });
  return {
    /** A folder's tree and a file's links, read as links read them (archives, file details). */
    linksRepo: repo,
    /** Whether a link's maker may still share its target (a suspended link is not active). */
    linkMakerMayShare: createLinkMakerCheck(deps),
  };
}

// What other modules may use (docs/ARCHITECTURE.md#server-layers: only through this face).
export { linkSubject, presentLink } from './links.presenter';
export type { LinkRow, LinksRepository } from './links.repository';

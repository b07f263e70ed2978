/**
 * The public links module's face: links to a file or folder for anyone with the URL, optionally with a password,
 * an expiry or uploads (docs/PRODUCT.md#public-links).
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

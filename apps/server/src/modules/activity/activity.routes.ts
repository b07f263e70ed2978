import { ENDPOINTS } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { routesOf } from '../../plugins/route';
import type { ActivityService } from './activity.service';

const USER = { access: 'user' } as const;

/**
 * Activity feeds (docs/PRODUCT.md#activity), the home (#dashboard-home), Starred and Recent (#starred-and-recent). Who may is
 * the workspace and folder policies' (a feed) and the file policy's (a star); lists read only what the caller reaches.
 */
export function registerActivityRoutes(app: FastifyInstance, { activity }: { activity: ActivityService }) {
  const feeds = routesOf(app, { config: USER, tags: ['activity'] });
  feeds(ENDPOINTS.activity.workspace, {
    summary:
      "A workspace's activity, newest first: uploads, new versions, renames, moves, shares (editors and owners), deletions and restores; members only",
    errors: [400, 404],
    handler: async (request) => activity.workspace(await request.requireUser(), request.params.id, request.query),
  });
  feeds(ENDPOINTS.activity.folder, {
    summary: 'The activity of a folder and everything below it, newest first, for whoever may read the folder',
    errors: [400, 404],
    handler: async (request) => activity.folder(await request.requireUser(), request.params.id, request.query),
  });

  const home = routesOf(app, { config: USER, tags: ['home'] });
  const { summary, recent, starred, star, unstar } = ENDPOINTS.home;
  home(summary, {
    summary:
      'The dashboard home: counts of what you reach in every space, recent files, your workspaces with their storage, shared with you lately',
    handler: async (request) => activity.home(await request.requireUser()),
  });
  home(recent, {
    summary: 'Files you can read in every space, newest content first (not in the trash)',
    errors: [400],
    handler: async (request) => activity.recent(await request.requireUser(), request.query),
  });
  home(starred, {
    summary: 'What you starred and can still read, newest star first (items in the trash are left out)',
    handler: async (request) => activity.starred(await request.requireUser()),
  });
  home(star, {
    summary: 'Star a file or folder you can read',
    errors: [404],
    handler: async (request) => activity.star(await request.requireUser(), request.params),
  });
  home(unstar, {
    summary: 'Remove your star from a file or folder',
    handler: async (request) => activity.unstar(await request.requireUser(), request.params),
  });
}

import { ENDPOINTS } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { requestContext } from '../../lib/http/request-context';
import type { TrashService } from './trash.service';
import { routesOf } from '../../plugins/route';

const USER = { access: 'user' } as const;
const { list, restore, purge, empty } = ENDPOINTS.trash;

/** The trash (docs/PRODUCT.md#trash-and-versions): list, restore, purge one, empty. Who may is the trash policy's. */
export function registerTrashRoutes(app: FastifyInstance, { trash }: { trash: TrashService }) {
  const serve = routesOf(app, { config: USER, tags: ['trash'] });

  serve(list, {
    summary:
      'Your personal trash and that of every workspace where you are an editor or owner, newest first (who deleted each item, when it is purged)',
    handler: async (request) => trash.list(await request.requireUser()),
  });

  serve(restore, {
    summary:
      'Put a trashed file or folder back where it was (or at the root of its space when that folder is gone); a taken name becomes "name (1)"',
    errors: [404, 409],
    handler: async (request) => trash.restore(await request.requireUser(), request.params.id, requestContext(request)),
  });

  serve(purge, {
    summary: 'Delete a trashed file or folder for good (its bytes and versions too)',
    errors: [404],
    handler: async (request) => trash.purge(await request.requireUser(), request.params.id, requestContext(request)),
  });

  serve(empty, {
    summary: "Empty your personal trash, or with ?workspaceId= that workspace's (editors and owners)",
    errors: [403, 404],
    handler: async (request) =>
      trash.empty(await request.requireUser(), request.query.workspaceId, requestContext(request)),
  });
}

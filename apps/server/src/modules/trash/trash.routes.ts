import { ENDPOINTS } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { EventEmitter } from '../../events';
import { requestContext } from '../../lib/http/request-context';
import type { TrashService } from './trash.service';
import { routesOf } from '../../plugins/route';

const USER = { access: 'user' } as const;
const { list, restore, purge, empty } = ENDPOINTS.trash;

/** The trash (issue 16): list, restore, purge one, empty. Who may is the trash policy's. */
export function registerTrashRoutes(
  app: FastifyInstance,
  { trash, events }: { trash: TrashService; events: EventEmitter },
) {
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
    handler: async (request) => {
      const actor = await request.requireUser();
      const restored = await trash.restore(actor, request.params.id);
      await events.emit('file.restored', {
        actor: actor.ownerKey,
        target: `${restored.kind}:${restored.id}`,
        details: { name: restored.name, toRoot: restored.toRoot },
        ...requestContext(request),
      });
      return restored;
    },
  });

  serve(purge, {
    summary: 'Delete a trashed file or folder for good (its bytes and versions too)',
    errors: [404],
    handler: async (request) => {
      const actor = await request.requireUser();
      const { kind, ...purged } = await trash.purge(actor, request.params.id);
      await events.emit('file.purged', {
        actor: actor.ownerKey,
        target: `${kind}:${purged.id}`,
        ...requestContext(request),
      });
      return purged;
    },
  });

  serve(empty, {
    summary: "Empty your personal trash, or with ?workspaceId= that workspace's (editors and owners)",
    errors: [403, 404],
    handler: async (request) => {
      const actor = await request.requireUser();
      const emptied = await trash.empty(actor, request.query.workspaceId);
      await events.emit('file.purged', {
        actor: actor.ownerKey,
        target:
          request.query.workspaceId === undefined
            ? `trash:${actor.ownerKey}`
            : `workspace:${request.query.workspaceId}`,
        details: { emptied: emptied.purged },
        ...requestContext(request),
      });
      return emptied;
    },
  });
}

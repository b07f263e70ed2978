import { ENDPOINTS, ErrorResponse } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { EventEmitter } from '../../events';
import { requestContext } from '../../lib/http/request-context';
import type { TrashService } from './trash.service';

const USER = { access: 'user' } as const;
const { list, restore, purge, empty } = ENDPOINTS.trash;

/** The trash (issue 16): list, restore, purge one, empty. Who may is the trash policy's. */
export function registerTrashRoutes(
  app: FastifyInstance,
  { trash, events }: { trash: TrashService; events: EventEmitter },
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.route({
    method: list.method,
    url: list.path,
    config: USER,
    schema: {
      tags: ['trash'],
      summary:
        'Your personal trash and that of every workspace where you are an editor or owner, newest first (who deleted each item, when it is purged)',
      response: { 200: list.response },
    },
    handler: async (request) => trash.list(await request.requireUser()),
  });

  typed.route({
    method: restore.method,
    url: restore.path,
    config: USER,
    schema: {
      tags: ['trash'],
      summary:
        'Put a trashed file or folder back where it was (or at the root of its space when that folder is gone); a taken name becomes "name (1)"',
      params: restore.params,
      response: { 200: restore.response, 404: ErrorResponse, 409: ErrorResponse },
    },
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

  typed.route({
    method: purge.method,
    url: purge.path,
    config: USER,
    schema: {
      tags: ['trash'],
      summary: 'Delete a trashed file or folder for good (its bytes and versions too)',
      params: purge.params,
      response: { 200: purge.response, 404: ErrorResponse },
    },
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

  typed.route({
    method: empty.method,
    url: empty.path,
    config: USER,
    schema: {
      tags: ['trash'],
      summary: "Empty your personal trash, or with ?workspaceId= that workspace's (editors and owners)",
      querystring: empty.query,
      response: { 200: empty.response, 403: ErrorResponse, 404: ErrorResponse },
    },
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

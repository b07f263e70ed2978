import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ENDPOINTS, ErrorResponse } from '@atrium/contracts';
import type { EventEmitter } from '../../events';
import { requestContext } from '../../lib/http/request-context';
import type { PeopleService } from './people.service';

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const { list, settings, photos, rename, merge, split, removeFace } = ENDPOINTS.people;

/**
 * People in photos (issue 17) under `/api/spaces/{spaceId}/people` (`personal` or a workspace id): members read,
 * editors and owners name, merge and split, owners turn People on or off (an audit entry). Access is decided by
 * the people policy (`auth/policies/people.ts`).
 */
export function registerPeopleRoutes(
  app: FastifyInstance,
  { people, events }: { people: PeopleService; events: EventEmitter },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.route({
    method: list.method,
    url: list.path,
    config: { access: 'user' },
    schema: {
      tags: ['people'],
      summary: 'The people of a space, with face counts and cover faces (members)',
      params: list.params,
      response: { 200: list.response, 404: ErrorResponse },
    },
    handler: async (request) => people.list(await request.requireUser(), request.params.spaceId),
  });
  r.route({
    method: settings.method,
    url: settings.path,
    config: { access: 'user' },
    schema: {
      tags: ['people'],
      summary: 'Turn People on (photos are analysed for faces again) or off (descriptors and people deleted)',
      params: settings.params,
      body: settings.body,
      response: { 200: settings.response, 409: ErrorResponse, ...errors },
    },
    handler: async (request) => {
      const actor = await request.requireUser();
      const changed = await people.setSetting(actor, request.params.spaceId, request.body.enabled);
      await events.emit('settings.changed', {
        actor: actor.ownerKey,
        target:
          request.params.spaceId === 'personal' ? `user:${actor.ownerKey}` : `workspace:${request.params.spaceId}`,
        details: { setting: 'people', to: changed.enabled ? 'on' : 'off' },
        ...requestContext(request),
      });
      return changed;
    },
  });
  r.route({
    method: photos.method,
    url: photos.path,
    config: { access: 'user' },
    schema: {
      tags: ['people'],
      summary: "A person's photos, with the person's face boxes in each (members)",
      params: photos.params,
      response: { 200: photos.response, 404: ErrorResponse },
    },
    handler: async (request) =>
      people.photos(await request.requireUser(), request.params.spaceId, request.params.personId),
  });
  r.route({
    method: rename.method,
    url: rename.path,
    config: { access: 'user' },
    schema: {
      tags: ['people'],
      summary: 'Name a person (editors and owners); their photos become findable by the name',
      params: rename.params,
      body: rename.body,
      response: { 200: rename.response, ...errors },
    },
    handler: async (request) =>
      people.rename(await request.requireUser(), request.params.spaceId, request.params.personId, request.body.name),
  });
  r.route({
    method: merge.method,
    url: merge.path,
    config: { access: 'user' },
    schema: {
      tags: ['people'],
      summary: 'Merge another person into this one (editors and owners)',
      params: merge.params,
      body: merge.body,
      response: { 200: merge.response, ...errors },
    },
    handler: async (request) =>
      people.merge(await request.requireUser(), request.params.spaceId, request.params.personId, request.body.personId),
  });
  r.route({
    method: split.method,
    url: split.path,
    config: { access: 'user' },
    schema: {
      tags: ['people'],
      summary: "Move some of a person's faces to a new person (editors and owners)",
      params: split.params,
      body: split.body,
      response: { [split.status]: split.response, ...errors },
    },
    handler: async (request, reply) => {
      const created = await people.split(
        await request.requireUser(),
        request.params.spaceId,
        request.params.personId,
        request.body.faceIds,
      );
      return reply.code(split.status).send(created);
    },
  });
  r.route({
    method: removeFace.method,
    url: removeFace.path,
    config: { access: 'user' },
    schema: {
      tags: ['people'],
      summary: 'Remove a face from a person: it is not this person (editors and owners)',
      params: removeFace.params,
      response: { 200: removeFace.response, ...errors },
    },
    handler: async (request) => {
      const { spaceId, personId, faceId } = request.params;
      await people.removeFace(await request.requireUser(), spaceId, personId, faceId);
      return { removed: true as const };
    },
  });
}

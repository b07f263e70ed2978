import type { FastifyInstance } from 'fastify';
import { ENDPOINTS } from '@atrium/contracts';
import { requestContext } from '../../lib/http/request-context';
import type { PeopleService } from './people.service';
import { routesOf } from '../../plugins/route';

const errors = [400, 403, 404] as const;
const { list, settings, photos, rename, merge, split, removeFace } = ENDPOINTS.people;

/**
 * People in photos (docs/PRODUCT.md#people) under `/api/spaces/{spaceId}/people` (`personal` or a workspace id):
 * members read, editors and owners name, merge and split, owners turn People on or off (an audit entry). Access is
 * decided by the people policy (`auth/policies/people.ts`).
 */
export function registerPeopleRoutes(app: FastifyInstance, { people }: { people: PeopleService }) {
  const serve = routesOf(app, { config: { access: 'user' }, tags: ['people'] });

  serve(list, {
    summary: 'The people of a space, with face counts and cover faces (members)',
    errors: [404],
    handler: async (request) => people.list(await request.requireUser(), request.params.spaceId),
  });
  serve(settings, {
    summary: 'Turn People on (photos are analysed for faces again) or off (descriptors and people deleted)',
    errors: [409, ...errors],
    handler: async (request) => {
      const { spaceId } = request.params;
      return people.setSetting(await request.requireUser(), spaceId, request.body.enabled, requestContext(request));
    },
  });
  serve(photos, {
    summary: "A person's photos, with the person's face boxes in each (members)",
    errors: [404],
    handler: async (request) =>
      people.photos(await request.requireUser(), request.params.spaceId, request.params.personId),
  });
  serve(rename, {
    summary: 'Name a person (editors and owners); their photos become findable by the name',
    errors,
    handler: async (request) =>
      people.rename(await request.requireUser(), request.params.spaceId, request.params.personId, request.body.name),
  });
  serve(merge, {
    summary: 'Merge another person into this one (editors and owners)',
    errors,
    handler: async (request) =>
      people.merge(await request.requireUser(), request.params.spaceId, request.params.personId, request.body.personId),
  });
  serve(split, {
    summary: "Move some of a person's faces to a new person (editors and owners)",
    errors,
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
  serve(removeFace, {
    summary: 'Remove a face from a person: it is not this person (editors and owners)',
    errors,
    handler: async (request) => {
      const { spaceId, personId, faceId } = request.params;
      await people.removeFace(await request.requireUser(), spaceId, personId, faceId);
      return { removed: true as const };
    },
  });
}

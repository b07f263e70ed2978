/**
 * The people module's face: people in photos, clustered from the faces background analysis finds
 * (docs/PRODUCT.md#people). It announces `people.changed` when the names in files change (search composes their
 * content again) and `file.reanalyse` when People is turned on for a space (analysis runs again on its photos).
 */
import type { FastifyInstance } from 'fastify';
import { registerPeopleRoutes } from './people.routes';
import { createPeopleService, type PeopleServiceDeps } from './people.service';

export type PeopleModuleDeps = PeopleServiceDeps;

export function createPeopleModule(app: FastifyInstance, deps: PeopleModuleDeps) {
  const people = createPeopleService(deps);
  registerPeopleRoutes(app, { people, events: deps.events });
  return { people };
}

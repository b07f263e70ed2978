/**
 * The people module's face: people in photos, clustered from the faces background analysis finds
 * (docs/PRODUCT.md#people). It announces `people.changed` when the names in files change (search composes their
 * content again) and `file.reanalyse` when People is turned on for a space (analysis runs again on its photos).
 *
 * Opt-in per space (`people_settings`, migration `0020-people`; a space is a workspace id or `personal:<owner key>`).
 * Where it is on, the image analyser asks the face provider for `describeFaces` (128-number descriptors) and hands the
 * faces to `saveFaces` in the transaction that saves the insights. `clustering.ts`: each face joins the person of the
 * nearest placed face of the space within `PEOPLE_MATCH_DISTANCE` (measured in bench/people.mjs), or starts a person.
 *
 * `people.routes.ts` under `/api/spaces/{spaceId}/people`: the space's people and its setting (turn on or off), a
 * person's photos, rename, merge, split, remove a face; who may is `auth/policies/people.ts` (`personal` is the
 * caller's own space; a workspace goes through the workspace policy: read for members, write for editors and owners,
 * manage for owners). Faces cascade with their file and everything with its workspace; trashed photos' faces are
 * hidden; turning People off deletes the space's faces and people.
 */
import type { FastifyInstance } from 'fastify';
import { registerPeopleRoutes } from './people.routes';
import { createPeopleService, type PeopleServiceDeps } from './people.service';

export type PeopleModuleDeps = PeopleServiceDeps;

export function createPeopleModule(app: FastifyInstance, deps: PeopleModuleDeps) {
  const people = createPeopleService(deps);
  registerPeopleRoutes(app, { people });
  return { people };
}

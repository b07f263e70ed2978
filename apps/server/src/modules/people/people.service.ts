import { randomUUID } from 'node:crypto';
import type { PeopleList, PersonFace, PersonPhotos, PersonSummary } from '@atrium/contracts';
import { IMAGE_TYPES } from '@atrium/contracts/texts';
import type { UserActor } from '../../auth/actor';
import { requirePeopleSpace, spaceKeyOf, type PeopleSpace } from '../../auth/policies/people';
import { allows, type ResourceAction, type ResourceRole } from '../../auth/policies/roles';
import type { Db } from '../../db';
import type { FacesTable } from '../../db/schema';
import { AppError } from '../../errors';
import type { EventEmitter } from '../../events';
import type { RequestContext } from '../../lib/http/request-context';
import { iso, type Clock } from '../../lib/time';
import { DESCRIPTOR_LENGTH, nearestPerson, type PlacedFace } from './clustering';
import { createPeopleRepository } from './people.repository';

export const PEOPLE_MESSAGES = {
  personNotFound: 'Person not found.',
  faceNotFound: 'That face is not one of this person’s.',
  mergeSelf: 'Choose another person to merge with.',
  facesOff: 'Face analysis is turned off for this workspace. Turn analysis on (with faces) first.',
} as const;

/** A face found in a photo, as the analysis hands it over: box as fractions of the image, 128-number descriptor. */
export interface FoundFace {
  box: { left: number; top: number; width: number; height: number };
  descriptor: number[];
}

export interface PeopleServiceDeps {
  db: Db;
  clock: Clock;
  /** The workspace policy (`workspaces.authorize`): the caller's membership role, 404/403 otherwise. */
  workspaces: {
    authorize(actor: UserActor, id: string, action: ResourceAction): Promise<{ memberRole: ResourceRole }>;
  };
  /**
   * Hears `people.changed` when the names in files change (search composes their content again) and
   * `file.reanalyse` when People is turned on (the space's photos get their descriptors).
   */
  events: EventEmitter;
}

/**
 * People in photos (docs/PRODUCT.md#people), opt-in per space: the faces the background analysis finds in a space's
 * photos are clustered into people as they arrive (`saveFaces`, inside the analysis's own transaction); members list
 * people and their photos, editors and owners name, merge and split them, owners turn the feature on or off (off
 * deletes every descriptor and person of the space). A person's name becomes part of their photos' searchable content,
 * so search finds them with search's own visibility rule. Faces of trashed photos are hidden; purged photos take their
 * faces with them (ON DELETE CASCADE).
 */
export function createPeopleService(deps: PeopleServiceDeps) {
  const { db, clock } = deps;
  const repo = createPeopleRepository(db);
  const space = (actor: UserActor, spaceId: string, action: ResourceAction) =>
    requirePeopleSpace(actor, spaceId, action, deps.workspaces.authorize);
  const enabledFor = (spaceKey: string, executor: Db = db) => repo.enabled(spaceKey, executor);

  type FaceRow = Awaited<ReturnType<typeof repo.visibleFaces>>[number];
  const presentFace = (row: FaceRow): PersonFace => ({
    id: row.id,
    fileId: row.file_id,
    box: { left: row.box_left, top: row.box_top, width: row.box_width, height: row.box_height },
  });

  async function summaries(spaceKey: string, personId?: string): Promise<PersonSummary[]> {
    const people = await repo.people(spaceKey, personId);
    const faces = await repo.visibleFaces(spaceKey, personId);
    const byPerson = new Map<string, FaceRow[]>();
    for (const face of faces) byPerson.set(face.person_id ?? '', [...(byPerson.get(face.person_id ?? '') ?? []), face]);
    return people
      .flatMap((person): PersonSummary[] => {
        const own = byPerson.get(person.id) ?? [];
        if (own.length === 0) return [];
        const cover = own.find((face) => face.id === person.cover_face_id) ?? own[0];
        return [
          {
            id: person.id,
            name: person.name,
            faceCount: own.length,
            photoCount: new Set(own.map((face) => face.file_id)).size,
            cover: cover ? presentFace(cover) : null,
          },
        ];
      })
      .sort(
        (a, b) =>
          Number(b.name !== null) - Number(a.name !== null) ||
          (a.name ?? '').localeCompare(b.name ?? '') ||
          b.faceCount - a.faceCount ||
          a.id.localeCompare(b.id),
      );
  }

  async function personOf(where: PeopleSpace, personId: string) {
    const person = await repo.person(where.key, personId);
    if (!person) throw new AppError('NOT_FOUND', PEOPLE_MESSAGES.personNotFound);
    return person;
  }

  /** Files showing any of `personIds` (before a change, so files that lose a name are refreshed too). */
  const filesOf = (personIds: string[]) => repo.filesOf(personIds);

  /** The names of people in these files changed (named, renamed, merged, a face moved, people dropped). */
  const announceChanged = (fileIds: string[]) => deps.events.emit('people.changed', { fileIds: [...new Set(fileIds)] });

  async function applySetting(actor: UserActor, spaceId: string, enabled: boolean): Promise<{ enabled: boolean }> {
    const where = await space(actor, spaceId, 'manage');
    if (enabled) {
      if (where.workspaceId !== null) {
        const analysis = await repo.analysisSetting(where.workspaceId);
        if (analysis && analysis !== 'on') throw new AppError('CONFLICT', PEOPLE_MESSAGES.facesOff);
      }
      if (await enabledFor(where.key)) return { enabled };
      await repo.enable(where.key, where.workspaceId, iso(clock.now()));
      const photos = await repo.photos({ workspaceId: where.workspaceId, ownerKey: actor.ownerKey }, IMAGE_TYPES);
      await deps.events.emit('file.reanalyse', { fileIds: photos });
      return { enabled };
    }
    const touched = await db.transaction().execute((trx) => service.dropSpace(trx, where.key));
    await announceChanged(touched);
    return { enabled };
  }

  const service = {
    /** Whether People is on for the space of `file` (the analysis asks before computing descriptors). */
    enabledForFile: (file: { workspaceId: string | null; ownerKey: string }, executor: Db = db) =>
      enabledFor(spaceKeyOf(file), executor),

    /**
     * The faces analysis found in `file` (in the transaction that saves its insights): replaces the file's faces,
     * each joining the nearest person of the space or starting one. Nothing is kept where People is off.
     */
    async saveFaces(trx: Db, file: { id: string; workspaceId: string | null; ownerKey: string }, found: FoundFace[]) {
      const spaceKey = spaceKeyOf(file);
      await repo.dropFacesOfFile(trx, file.id);
      if (!(await enabledFor(spaceKey, trx))) return;
      const valid = found.filter((face) => face.descriptor.length === DESCRIPTOR_LENGTH);
      if (valid.length > 0) {
        const placed: PlacedFace[] = await repo.placedFaces(trx, spaceKey);
        const now = iso(clock.now());
        for (const face of valid) {
          const id = randomUUID();
          let personId = nearestPerson(face.descriptor, placed);
          if (personId === undefined) {
            personId = randomUUID();
            await repo.insertPerson(trx, {
              id: personId,
              space_key: spaceKey,
              workspace_id: file.workspaceId,
              name: null,
              cover_face_id: id,
              created_at: now,
              updated_at: now,
            });
          }
          const row: FacesTable = {
            id,
            file_id: file.id,
            space_key: spaceKey,
            person_id: personId,
            box_left: face.box.left,
            box_top: face.box.top,
            box_width: face.box.width,
            box_height: face.box.height,
            descriptor: JSON.stringify(face.descriptor.map((v) => Math.round(v * 1e6) / 1e6)),
            created_at: now,
          };
          await repo.insertFace(trx, row);
          placed.push({ personId, descriptor: face.descriptor });
        }
      }
      await repo.dropEmpty(trx, spaceKey);
    },

    /** The names of the people in a file (search finds the file by them). */
    namesIn: (fileId: string) => repo.namesIn(fileId),

    /**
     * Turns People off for a space (People or face analysis turned off): its setting, every face and every person go;
     * answers the files touched.
     */
    dropSpace: (executor: Db, spaceKey: string): Promise<string[]> => repo.dropSpace(executor, spaceKey),

    async list(actor: UserActor, spaceId: string): Promise<PeopleList> {
      const where = await space(actor, spaceId, 'read');
      const enabled = await enabledFor(where.key);
      return {
        enabled,
        canEdit: allows(where.role, 'write'),
        canManage: allows(where.role, 'manage'),
        people: enabled ? await summaries(where.key) : [],
      };
    },

    async photos(actor: UserActor, spaceId: string, personId: string): Promise<PersonPhotos> {
      const where = await space(actor, spaceId, 'read');
      await personOf(where, personId);
      const [summary] = await summaries(where.key, personId);
      if (!summary) throw new AppError('NOT_FOUND', PEOPLE_MESSAGES.personNotFound);
      const photos = new Map<string, PersonPhotos['photos'][number]>();
      for (const face of await repo.visibleFaces(where.key, personId)) {
        const photo = photos.get(face.file_id) ?? {
          fileId: face.file_id,
          fileName: face.file_name,
          contentType: face.content_type,
          faces: [],
        };
        photo.faces.push(presentFace(face));
        photos.set(face.file_id, photo);
      }
      return { person: summary, photos: [...photos.values()] };
    },

    async rename(actor: UserActor, spaceId: string, personId: string, name: string | null): Promise<PersonSummary> {
      const where = await space(actor, spaceId, 'write');
      await personOf(where, personId);
      const trimmed = name?.trim() ? name.trim() : null;
      await repo.setName(db, personId, trimmed, iso(clock.now()));
      await announceChanged(await filesOf([personId]));
      return (await summaries(where.key, personId))[0] ?? notFound();
    },

    /** Moves every face of `fromId` to `personId` (which keeps its name, or takes the other's if it has none). */
    async merge(actor: UserActor, spaceId: string, personId: string, fromId: string): Promise<PersonSummary> {
      const where = await space(actor, spaceId, 'write');
      if (personId === fromId) throw new AppError('BAD_REQUEST', PEOPLE_MESSAGES.mergeSelf);
      const target = await personOf(where, personId);
      const source = await personOf(where, fromId);
      const files = await filesOf([fromId]);
      await db.transaction().execute(async (trx) => {
        await repo.moveFaces(trx, fromId, personId);
        if (target.name === null && source.name !== null)
          await repo.setName(trx, personId, source.name, iso(clock.now()));
        await repo.deletePerson(trx, fromId);
      });
      await announceChanged(files);
      return (await summaries(where.key, personId))[0] ?? notFound();
    },

    /** Moves some of a person's faces to a new, unnamed person (201). */
    async split(actor: UserActor, spaceId: string, personId: string, faceIds: string[]): Promise<PersonSummary> {
      const where = await space(actor, spaceId, 'write');
      await personOf(where, personId);
      const ids = [...new Set(faceIds)];
      const own = await repo.facesOfPerson(personId, ids);
      if (own.length !== ids.length) throw new AppError('BAD_REQUEST', PEOPLE_MESSAGES.faceNotFound);
      const newId = randomUUID();
      const now = iso(clock.now());
      await db.transaction().execute(async (trx) => {
        await repo.insertPerson(trx, {
          id: newId,
          space_key: where.key,
          workspace_id: where.workspaceId,
          name: null,
          cover_face_id: ids[0] ?? null,
          created_at: now,
          updated_at: now,
        });
        await repo.assignFaces(trx, ids, newId);
        await repo.dropEmpty(trx, where.key);
      });
      await announceChanged(own.map((face) => face.file_id));
      return (await summaries(where.key, newId))[0] ?? notFound();
    },

    /** Takes a face away from a person: it belongs to nobody and is never clustered again. */
    async removeFace(actor: UserActor, spaceId: string, personId: string, faceId: string): Promise<void> {
      const where = await space(actor, spaceId, 'write');
      await personOf(where, personId);
      const [face] = await repo.facesOfPerson(personId, [faceId]);
      if (!face) throw new AppError('NOT_FOUND', PEOPLE_MESSAGES.faceNotFound);
      await db.transaction().execute(async (trx) => {
        await repo.assignFaces(trx, [faceId], null);
        await repo.dropEmpty(trx, where.key);
      });
      await announceChanged([face.file_id]);
    },

    async setting(actor: UserActor, spaceId: string): Promise<{ enabled: boolean }> {
      const where = await space(actor, spaceId, 'read');
      return { enabled: await enabledFor(where.key) };
    },

    /**
     * Turns People on (the space's photos are analysed again for their descriptors) or off (every descriptor and
     * person of the space is deleted, and names leave the search index).
     */
    async setSetting(
      actor: UserActor,
      spaceId: string,
      enabled: boolean,
      context: RequestContext = {},
    ): Promise<{ enabled: boolean }> {
      const answer = await applySetting(actor, spaceId, enabled);
      await deps.events.emit('settings.changed', {
        actor: actor.ownerKey,
        target: spaceId === 'personal' ? `user:${actor.ownerKey}` : `workspace:${spaceId}`,
        details: { setting: 'people', to: enabled ? 'on' : 'off' },
        ...context,
      });
      return answer;
    },
  };
  return service;
}

const notFound = (): never => {
  throw new AppError('NOT_FOUND', PEOPLE_MESSAGES.personNotFound);
};

export type PeopleService = ReturnType<typeof createPeopleService>;

import { z } from 'zod';
import { InsightBox } from './insights';
import { endpoint } from './endpoint';

/** People in photos (docs/PRODUCT.md#people): the faces of a space's photos grouped into people, opt-in per space. */

/** `personal` (the caller's own space) or a workspace id. */
export const PeopleSpaceParams = z.object({
  spaceId: z.string().min(1).max(200).describe('`personal` or a workspace id'),
});
export const PersonParams = PeopleSpaceParams.extend({ personId: z.string().min(1).max(200) });
export const PersonFaceParams = PersonParams.extend({ faceId: z.string().min(1).max(200) });

export const PERSON_NAME_MAX = 100;

export const PersonFace = z.object({ id: z.string(), fileId: z.string(), box: InsightBox });
export type PersonFace = z.infer<typeof PersonFace>;

export const PersonSummary = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    faceCount: z.number().int(),
    photoCount: z.number().int(),
    cover: PersonFace.nullable().describe('the face shown on the person’s card (crop the file’s thumbnail by box)'),
  })
  .meta({ id: 'PersonSummary' });
export type PersonSummary = z.infer<typeof PersonSummary>;

export const PeopleList = z
  .object({
    enabled: z.boolean(),
    /** The caller may rename, merge and split (editors and owners). */
    canEdit: z.boolean(),
    /** The caller may turn People on or off (workspace owners; the owner of a personal space). */
    canManage: z.boolean(),
    people: z.array(PersonSummary),
  })
  .meta({ id: 'PeopleList' });
export type PeopleList = z.infer<typeof PeopleList>;

export const PersonPhotos = z
  .object({
    person: PersonSummary,
    photos: z.array(
      z.object({ fileId: z.string(), fileName: z.string(), contentType: z.string(), faces: z.array(PersonFace) }),
    ),
  })
  .meta({ id: 'PersonPhotos' });
export type PersonPhotos = z.infer<typeof PersonPhotos>;

export const PeopleSettings = z.object({ enabled: z.boolean() }).meta({ id: 'PeopleSettings' });
export type PeopleSettings = z.infer<typeof PeopleSettings>;

export const RenamePersonRequest = z.object({
  name: z.string().trim().max(PERSON_NAME_MAX).nullable().describe('empty or null: unnamed'),
});
export const MergePeopleRequest = z.object({ personId: z.string().min(1).max(200).describe('merged into this one') });
export const SplitPersonRequest = z.object({ faceIds: z.array(z.string().min(1).max(200)).min(1).max(500) });

/** DELETE /api/spaces/{spaceId}/people/{personId}/faces/{faceId} */
export const RemoveFaceResponse = z.object({ removed: z.literal(true) }).meta({ id: 'RemoveFaceResponse' });
export type RemoveFaceResponse = z.infer<typeof RemoveFaceResponse>;

/** The people endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const peopleEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/spaces/:spaceId/people',
    params: PeopleSpaceParams,
    response: PeopleList,
  }),
  settings: endpoint({
    method: 'PUT',
    path: '/api/spaces/:spaceId/people/settings',
    params: PeopleSpaceParams,
    body: PeopleSettings,
    response: PeopleSettings,
  }),
  photos: endpoint({
    method: 'GET',
    path: '/api/spaces/:spaceId/people/:personId',
    params: PersonParams,
    response: PersonPhotos,
  }),
  rename: endpoint({
    method: 'PATCH',
    path: '/api/spaces/:spaceId/people/:personId',
    params: PersonParams,
    body: RenamePersonRequest,
    response: PersonSummary,
  }),
  merge: endpoint({
    method: 'POST',
    path: '/api/spaces/:spaceId/people/:personId/merge',
    params: PersonParams,
    body: MergePeopleRequest,
    response: PersonSummary,
  }),
  split: endpoint({
    method: 'POST',
    path: '/api/spaces/:spaceId/people/:personId/split',
    params: PersonParams,
    body: SplitPersonRequest,
    response: PersonSummary,
    status: 201,
  }),
  removeFace: endpoint({
    method: 'DELETE',
    path: '/api/spaces/:spaceId/people/:personId/faces/:faceId',
    params: PersonFaceParams,
    response: RemoveFaceResponse,
  }),
} as const;

import type { FileInsights, FileRecord, PeopleList, PersonPhotos, SearchResponse } from '@atrium/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownPeoplePhotos, type KnownPhoto } from '../../../test/people-fixtures';
import { dialects, expectJson, readError, sendJson, startTestServer, type TestServer } from '../../../test/helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * People in photos through HTTP, with the real face engine: photos of three known people (augmentations of one
 * face each, `test/people-fixtures.ts`) uploaded to a space where People is on are grouped into three people;
 * naming one makes their photos findable by the name; merge, split, remove, trash, purge and turning People off
 * behave as a client sees them.
 */
describe.each(dialects())('People in photos (%s)', (dialect) => {
  let server: TestServer;
  let owner: string;
  let stranger: string;
  let photos: KnownPhoto[];
  /** file id → known person. */
  const personOfFile = new Map<string, string>();
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { ANALYSIS_ENABLED: 'true' } });
    owner = await server.signInAs({ owner_key: 'people-owner' });
    stranger = await server.signInAs({ owner_key: 'people-stranger' });
    photos = await knownPeoplePhotos(3, 2);
  }, 60_000);
  afterAll(async () => server?.close());

  const send = (method: string, url: string, body?: unknown, cookie = owner) =>
    sendJson(server, cookie, method, url, body);
  const list = () => expectJson<PeopleList>(send('GET', '/api/spaces/personal/people'));
  async function upload(name: string, bytes: Buffer): Promise<FileRecord> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    return expectJson<FileRecord>(
      server.fetch('/api/files/upload', {
        method: 'POST',
        headers: { cookie: owner, accept: 'application/json' },
        body: form,
      }),
    );
  }
  async function settled(id: string, timeoutMs = 150_000): Promise<FileInsights> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const insights = await expectJson<FileInsights>(send('GET', `/api/files/${id}/insights`));
      if (!['pending', 'running'].includes(insights.status)) return insights;
      await sleep(150);
    }
    throw new Error(`analysis of ${id} did not finish`);
  }
  const search = async (q: string) =>
    (await expectJson<SearchResponse>(send('GET', `/api/search?q=${encodeURIComponent(q)}`))).items.map((i) => i.id);
  /** The known person of each photo of a person. */
  const truthOf = (photosOf: PersonPhotos) => new Set(photosOf.photos.map((p) => personOfFile.get(p.fileId)));

  it('is off by default and explains nothing is kept', async () => {
    expect(await list()).toEqual({ enabled: false, canEdit: true, canManage: true, people: [] });
  });

  it(
    'groups the faces of a space’s photos into the known people, and finds a named person’s photos by the name',
    { timeout: 400_000 },
    async () => {
      // A photo stored before People is on is analysed again when it is turned on.
      const [first, ...rest] = photos;
      if (!first) throw new Error('no photos');
      const early = await upload(first.name, first.jpeg);
      personOfFile.set(early.id, first.person);
      await settled(early.id);
      expect(await expectJson(send('PUT', '/api/spaces/personal/people/settings', { enabled: true }))).toEqual({
        enabled: true,
      });
      for (const photo of rest) personOfFile.set((await upload(photo.name, photo.jpeg)).id, photo.person);
      for (const id of personOfFile.keys()) expect((await settled(id)).status).toBe('done');
      // The re-analysis of the early photo may finish after the others: wait until every photo has its face.
      let people = await list();
      for (let i = 0; i < 300 && people.people.reduce((n, p) => n + p.photoCount, 0) < photos.length; i += 1) {
        await sleep(200);
        people = await list();
      }
      expect(people.enabled).toBe(true);
      expect(people.people).toHaveLength(3);
      for (const person of people.people) {
        expect(person).toMatchObject({ name: null, faceCount: 2, photoCount: 2 });
        const detail = await expectJson<PersonPhotos>(send('GET', `/api/spaces/personal/people/${person.id}`));
        expect(detail.photos).toHaveLength(2);
        expect(truthOf(detail).size).toBe(1); // both photos show the same known person
        for (const photo of detail.photos) {
          expect(photo.contentType).toBe('image/jpeg');
          const box = photo.faces[0]?.box;
          expect(box?.width).toBeGreaterThan(0.1);
          expect((box?.left ?? 0) + (box?.width ?? 2)).toBeLessThanOrEqual(1.001);
        }
        expect(detail.photos.map((p) => p.fileId)).toContain(person.cover?.fileId);
      }
      const known = new Set(
        await Promise.all(
          people.people.map(
            async (p) =>
              [...truthOf(await expectJson<PersonPhotos>(send('GET', `/api/spaces/personal/people/${p.id}`)))][0],
          ),
        ),
      );
      expect(known.size).toBe(3);

      // Naming a person: their two photos are found by the name, no other photo is.
      const [alice, bob, carol] = people.people;
      if (!alice || !bob || !carol) throw new Error('three people expected');
      expect(await search('Wilhelmina')).toEqual([]);
      const renamed = await expectJson<{ name: string }>(
        send('PATCH', `/api/spaces/personal/people/${alice.id}`, { name: '  Wilhelmina Quist ' }),
      );
      expect(renamed.name).toBe('Wilhelmina Quist');
      const aliceFiles = (await expectJson<PersonPhotos>(send('GET', `/api/spaces/personal/people/${alice.id}`))).photos
        .map((p) => p.fileId)
        .sort();
      expect((await search('wilhelmina')).sort()).toEqual(aliceFiles);
      expect((await search('Quist')).sort()).toEqual(aliceFiles);
      // Another user's search never finds them.
      const strangers = await expectJson<SearchResponse>(sendJson(server, stranger, 'GET', '/api/search?q=wilhelmina'));
      expect(strangers.items).toEqual([]);
      // Named people come first.
      expect((await list()).people[0]?.id).toBe(alice.id);

      // Merge Bob into Alice: four faces, Bob is gone, Bob's photos are found by Alice's name.
      const merged = await expectJson<{ faceCount: number; name: string }>(
        send('POST', `/api/spaces/personal/people/${alice.id}/merge`, { personId: bob.id }),
      );
      expect(merged).toMatchObject({ faceCount: 4, name: 'Wilhelmina Quist' });
      expect((await list()).people.map((p) => p.id)).not.toContain(bob.id);
      expect(await search('wilhelmina')).toHaveLength(4);
      expect((await send('GET', `/api/spaces/personal/people/${bob.id}`)).status).toBe(404);

      // Split Bob's faces out again: a new unnamed person; the name stays with Alice's own photos.
      const mergedPhotos = await expectJson<PersonPhotos>(send('GET', `/api/spaces/personal/people/${alice.id}`));
      const bobFaces = mergedPhotos.photos
        .filter((p) => !aliceFiles.includes(p.fileId))
        .flatMap((p) => p.faces.map((f) => f.id));
      const split = await expectJson<{ id: string; name: string | null; faceCount: number }>(
        send('POST', `/api/spaces/personal/people/${alice.id}/split`, { faceIds: bobFaces }),
        201,
      );
      expect(split).toMatchObject({ name: null, faceCount: 2 });
      expect((await search('wilhelmina')).sort()).toEqual(aliceFiles);

      // Remove one face from Carol: it belongs to nobody.
      const carolPhotos = await expectJson<PersonPhotos>(send('GET', `/api/spaces/personal/people/${carol.id}`));
      const carolFace = carolPhotos.photos[0]?.faces[0]?.id ?? '';
      await expectJson(send('DELETE', `/api/spaces/personal/people/${carol.id}/faces/${carolFace}`));
      expect((await list()).people.find((p) => p.id === carol.id)?.faceCount).toBe(1);
      expect((await send('DELETE', `/api/spaces/personal/people/${carol.id}/faces/${carolFace}`)).status).toBe(404);

      // Trash one of Alice's photos: hidden while trashed; purged: its face is deleted.
      const [trashed] = aliceFiles;
      await expectJson(send('DELETE', `/api/files/user/${trashed}`));
      expect((await list()).people.find((p) => p.id === alice.id)?.photoCount).toBe(1);
      await expectJson(send('POST', `/api/trash/${trashed}/restore`));
      expect((await list()).people.find((p) => p.id === alice.id)?.photoCount).toBe(2);
      await expectJson(send('DELETE', `/api/files/user/${trashed}`));
      await expectJson(send('DELETE', `/api/trash/${trashed}`));
      const left = await server.app.database.db
        .selectFrom('faces')
        .select('id')
        .where('file_id', '=', trashed ?? '')
        .execute();
      expect(left).toEqual([]);
      expect((await list()).people.find((p) => p.id === alice.id)?.faceCount).toBe(1);

      // Clear 4xx on bad input.
      const tooLong = await send('PATCH', `/api/spaces/personal/people/${alice.id}`, { name: 'x'.repeat(101) });
      expect(tooLong.status).toBe(400);
      const self = await send('POST', `/api/spaces/personal/people/${alice.id}/merge`, { personId: alice.id });
      expect(self.status).toBe(400);
      expect((await readError(self)).message).toBe('Choose another person to merge with.');
      const notHis = await send('POST', `/api/spaces/personal/people/${alice.id}/split`, { faceIds: [carolFace] });
      expect(notHis.status).toBe(400);
      expect((await send('POST', `/api/spaces/personal/people/${alice.id}/split`, { faceIds: [] })).status).toBe(400);
      expect((await send('PATCH', '/api/spaces/personal/people/nobody', { name: 'X' })).status).toBe(404);
      // Another user's personal space is their own: the owner's people are not reachable.
      const strangerList = await expectJson<PeopleList>(
        sendJson(server, stranger, 'GET', '/api/spaces/personal/people'),
      );
      expect(strangerList.people).toEqual([]);
      expect((await sendJson(server, stranger, 'GET', `/api/spaces/personal/people/${alice.id}`)).status).toBe(404);

      // Turning People off deletes every descriptor and person of the space, and the names leave the search.
      await expectJson(send('PUT', '/api/spaces/personal/people/settings', { enabled: false }));
      expect(await list()).toEqual({ enabled: false, canEdit: true, canManage: true, people: [] });
      const rows = await server.app.database.db.selectFrom('faces').select('id').execute();
      expect(rows).toEqual([]);
      expect(await server.app.database.db.selectFrom('people').select('id').execute()).toEqual([]);
      expect(await search('wilhelmina')).toEqual([]);
    },
  );

  it('answers 404 for a workspace the caller is not a member of', async () => {
    const ws = await expectJson<{ id: string }>(send('POST', '/api/workspaces', { name: 'People ws' }), 201);
    const hidden = await sendJson(server, stranger, 'GET', `/api/spaces/${ws.id}/people`);
    expect(hidden.status).toBe(404);
    expect((await readError(hidden)).code).toBe('WORKSPACE_NOT_FOUND');
    // A member sees what their role lets them do with the people: a viewer looks, an editor also names, merges and
    // splits; only the owner turns People on or off.
    const flags = async () => {
      const { canEdit, canManage } = await expectJson<PeopleList>(
        sendJson(server, stranger, 'GET', `/api/spaces/${ws.id}/people`),
      );
      return { canEdit, canManage };
    };
    for (const [role, expected] of [
      ['viewer', { canEdit: false, canManage: false }],
      ['editor', { canEdit: true, canManage: false }],
    ] as const) {
      await expectJson(send('PUT', `/api/workspaces/${ws.id}/members/people-stranger`, { role }));
      expect(await flags(), role).toEqual(expected);
    }
    await expectJson(send('DELETE', `/api/workspaces/${ws.id}/members/people-stranger`));
    // Faces turned off for the workspace: People cannot be turned on.
    await expectJson(send('PUT', `/api/workspaces/${ws.id}/analysis`, { analysis: 'no-faces' }));
    const refused = await send('PUT', `/api/spaces/${ws.id}/people/settings`, { enabled: true });
    expect(refused.status).toBe(409);
  });
});

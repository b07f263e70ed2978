import type { Insertable } from 'kysely';
import type { Db } from '../../db';
import type { FacesTable, PeopleTable } from '../../db/schema';

/** Plain queries on `people_settings`, `people` and `faces` (migration 0020); the rules are in the service. */
export const createPeopleRepository = (db: Db) => ({
  /** Whether People is on for the space. */
  enabled: async (spaceKey: string, executor: Db = db) =>
    (await executor
      .selectFrom('people_settings')
      .select('space_key')
      .where('space_key', '=', spaceKey)
      .executeTakeFirst()) !== undefined,

  async enable(spaceKey: string, workspaceId: string | null, updatedAt: string) {
    await db
      .insertInto('people_settings')
      .values({ space_key: spaceKey, workspace_id: workspaceId, updated_at: updatedAt })
      .onConflict((oc) => oc.column('space_key').doNothing())
      .execute();
  },

  /** A workspace's analysis setting (People needs faces: `on`); undefined without a row. */
  async analysisSetting(workspaceId: string) {
    const row = await db
      .selectFrom('analysis_settings')
      .select('analysis')
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row?.analysis;
  },

  /** Deletes people left without a face in the space. */
  async dropEmpty(executor: Db, spaceKey: string) {
    await executor
      .deleteFrom('people')
      .where('space_key', '=', spaceKey)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('faces').select('faces.id').whereRef('faces.person_id', '=', 'people.id'))),
      )
      .execute();
  },

  /** Visible faces (their photo not in the trash) of the space, optionally of one person, oldest first. */
  visibleFaces(spaceKey: string, personId?: string) {
    let query = db
      .selectFrom('faces')
      .innerJoin('files', 'files.id', 'faces.file_id')
      .select([
        'faces.id',
        'faces.file_id',
        'faces.person_id',
        'faces.box_left',
        'faces.box_top',
        'faces.box_width',
        'faces.box_height',
        'files.file_name',
        'files.content_type',
      ])
      .where('faces.space_key', '=', spaceKey)
      .where('faces.person_id', 'is not', null)
      .where('files.trashed_at', 'is', null);
    if (personId !== undefined) query = query.where('faces.person_id', '=', personId);
    return query.orderBy('faces.created_at').orderBy('faces.id').execute();
  },

  /** The people of a space (or the one person). */
  people(spaceKey: string, personId?: string) {
    let query = db.selectFrom('people').selectAll().where('space_key', '=', spaceKey);
    if (personId !== undefined) query = query.where('id', '=', personId);
    return query.execute();
  },

  person: (spaceKey: string, personId: string) =>
    db.selectFrom('people').selectAll().where('id', '=', personId).where('space_key', '=', spaceKey).executeTakeFirst(),

  /** Files showing any of `personIds`. */
  filesOf: async (personIds: string[]) =>
    personIds.length === 0
      ? []
      : (await db.selectFrom('faces').select('file_id').distinct().where('person_id', 'in', personIds).execute()).map(
          (row) => row.file_id,
        ),

  /** The names of the people in a file. */
  namesIn: async (fileId: string) =>
    (
      await db
        .selectFrom('faces')
        .innerJoin('people', 'people.id', 'faces.person_id')
        .select('people.name')
        .distinct()
        .where('faces.file_id', '=', fileId)
        .where('people.name', 'is not', null)
        .execute()
    ).flatMap((row) => (row.name ? [row.name] : [])),

  async dropFacesOfFile(executor: Db, fileId: string) {
    await executor.deleteFrom('faces').where('file_id', '=', fileId).execute();
  },

  /** The space's faces that belong to someone, with their descriptors (to cluster new faces). */
  async placedFaces(executor: Db, spaceKey: string) {
    const rows = await executor
      .selectFrom('faces')
      .select(['person_id', 'descriptor'])
      .where('space_key', '=', spaceKey)
      .where('person_id', 'is not', null)
      .execute();
    return rows.map((row) => ({ personId: row.person_id ?? '', descriptor: JSON.parse(row.descriptor) as number[] }));
  },

  async insertPerson(executor: Db, row: Insertable<PeopleTable>) {
    await executor.insertInto('people').values(row).execute();
  },

  async insertFace(executor: Db, row: FacesTable) {
    await executor.insertInto('faces').values(row).execute();
  },

  /** Turns People off for a space: its setting, faces and people go; answers the files that showed someone. */
  async dropSpace(executor: Db, spaceKey: string): Promise<string[]> {
    const files = await executor
      .selectFrom('faces')
      .select('file_id')
      .distinct()
      .where('space_key', '=', spaceKey)
      .execute();
    await executor.deleteFrom('people_settings').where('space_key', '=', spaceKey).execute();
    await executor.deleteFrom('faces').where('space_key', '=', spaceKey).execute();
    await executor.deleteFrom('people').where('space_key', '=', spaceKey).execute();
    return files.map((row) => row.file_id);
  },

  async setName(executor: Db, personId: string, name: string | null, updatedAt: string) {
    await executor.updateTable('people').set({ name, updated_at: updatedAt }).where('id', '=', personId).execute();
  },

  async deletePerson(executor: Db, personId: string) {
    await executor.deleteFrom('people').where('id', '=', personId).execute();
  },

  /** Gives every face of `fromId` to `toId`. */
  async moveFaces(executor: Db, fromId: string, toId: string) {
    await executor.updateTable('faces').set({ person_id: toId }).where('person_id', '=', fromId).execute();
  },

  /** Gives faces to a person, or to nobody (`null`: never clustered again). */
  async assignFaces(executor: Db, faceIds: string[], personId: string | null) {
    await executor.updateTable('faces').set({ person_id: personId }).where('id', 'in', faceIds).execute();
  },

  /** Those of `faceIds` that are the person's. */
  facesOfPerson: (personId: string, faceIds: string[]) =>
    db
      .selectFrom('faces')
      .select(['id', 'file_id'])
      .where('person_id', '=', personId)
      .where('id', 'in', faceIds)
      .execute(),

  /** A space's photos not in the trash (a workspace's, or a personal space's by owner), by content type. */
  async photos(where: { workspaceId: string | null; ownerKey: string }, types: readonly string[]): Promise<string[]> {
    let photos = db.selectFrom('files').select('id').where('content_type', 'in', types).where('trashed_at', 'is', null);
    photos =
      where.workspaceId === null
        ? photos.where('workspace_id', 'is', null).where('owner_key', '=', where.ownerKey)
        : photos.where('workspace_id', '=', where.workspaceId);
    return (await photos.execute()).map((row) => row.id);
  },
});

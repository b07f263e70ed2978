import type { AnalysisSetting } from '@atrium/contracts';
import type { Db } from '../../db';
import type { FileInsightsTable } from '../../db/schema';

export type InsightsRow = Omit<FileInsightsTable, 'updated_at'>;

/** Plain queries on `file_insights` and `analysis_settings` (migration 0018); the rules are in the service. */
export const createAnalysisRepository = (db: Db) => ({
  /** A file's saved insights. */
  insights: (fileId: string, executor: Db = db) =>
    executor.selectFrom('file_insights').selectAll().where('file_id', '=', fileId).executeTakeFirst(),

  /** Writes a file's insights (one row per file). */
  async upsertInsights(
    executor: Db,
    row: Partial<InsightsRow> & Pick<InsightsRow, 'file_id' | 'status' | 'content_sha'>,
    updatedAt: string,
  ) {
    const values = { ...row, updated_at: updatedAt };
    await executor
      .insertInto('file_insights')
      .values(values)
      .onConflict((oc) => oc.column('file_id').doUpdateSet(values))
      .execute();
  },

  /** A workspace's stored setting (undefined without a row). */
  async setting(workspaceId: string, executor: Db = db): Promise<AnalysisSetting | undefined> {
    const row = await executor
      .selectFrom('analysis_settings')
      .select('analysis')
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row?.analysis;
  },

  async saveSetting(executor: Db, workspaceId: string, analysis: AnalysisSetting, updatedAt: string) {
    await executor
      .insertInto('analysis_settings')
      .values({ workspace_id: workspaceId, analysis, updated_at: updatedAt })
      .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ analysis, updated_at: updatedAt }))
      .execute();
  },

  /** Forgets the faces found in a workspace's files (its insights stay). */
  async dropWorkspaceFaces(executor: Db, workspaceId: string, updatedAt: string) {
    await executor
      .updateTable('file_insights')
      .set({ faces: null, updated_at: updatedAt })
      .where('file_id', 'in', executor.selectFrom('files').select('id').where('workspace_id', '=', workspaceId))
      .execute();
  },

  /**
   * A space's own words, newest first (the speech engine's adaptation, docs/PRODUCT.md#transcripts): the names,
   * extracted text and transcripts of its other files that are not in the trash, then its folders' names.
   */
  async spaceWords(space: { workspaceId: string | null; ownerKey: string }, exceptFileId: string, limit = 200) {
    let files = db
      .selectFrom('files')
      .leftJoin('file_insights', 'file_insights.file_id', 'files.id')
      .select(['files.file_name as name', 'file_insights.text as text', 'file_insights.transcript as transcript'])
      .where('files.id', '!=', exceptFileId)
      .where('files.trashed_at', 'is', null);
    let folders = db.selectFrom('folders').select('name').where('trashed_at', 'is', null);
    if (space.workspaceId === null) {
      files = files.where('files.workspace_id', 'is', null).where('files.owner_key', '=', space.ownerKey);
      folders = folders.where('workspace_id', 'is', null).where('owner_key', '=', space.ownerKey);
    } else {
      files = files.where('files.workspace_id', '=', space.workspaceId);
      folders = folders.where('workspace_id', '=', space.workspaceId);
    }
    return {
      files: await files.orderBy('files.upload_date', 'desc').limit(limit).execute(),
      folders: (await folders.orderBy('updated_at', 'desc').limit(limit).execute()).map((row) => row.name),
    };
  },

  /** Deletes the insights of a workspace's files. */
  async dropWorkspaceInsights(executor: Db, workspaceId: string) {
    await executor
      .deleteFrom('file_insights')
      .where('file_id', 'in', executor.selectFrom('files').select('id').where('workspace_id', '=', workspaceId))
      .execute();
  },

  /** A file's current content hash (undefined once it is gone). */
  async contentShaOf(executor: Db, fileId: string): Promise<string | undefined> {
    const row = await executor.selectFrom('files').select('sha256').where('id', '=', fileId).executeTakeFirst();
    return row?.sha256;
  },

  /** Stored files in id order after `after`, a page at a time (reindex). */
  /**
   * Ids (after `after`, in order) of files whose analysis is missing or was made by other analysers than `version`:
   * no insights row, a row for other content, or a finished row of another version. Rows a workspace turned off
   * (no version) are left alone.
   */
  notAnalysedAfter: async (after: string, limit: number, version: string): Promise<string[]> =>
    (
      await db
        .selectFrom('files')
        .leftJoin('file_insights', 'file_insights.file_id', 'files.id')
        .select('files.id')
        .where('files.id', '>', after)
        .where((eb) =>
          eb.or([
            eb('file_insights.file_id', 'is', null),
            eb('file_insights.content_sha', '<>', eb.ref('files.sha256')),
            eb.and([
              eb('file_insights.model_version', 'is not', null),
              eb('file_insights.model_version', '<>', version),
            ]),
          ]),
        )
        .orderBy('files.id')
        .limit(limit)
        .execute()
    ).map((row) => row.id),

  filesAfter: (after: string, limit: number) =>
    db
      .selectFrom('files')
      .select(['id', 'content_type', 'sha256'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute(),
});

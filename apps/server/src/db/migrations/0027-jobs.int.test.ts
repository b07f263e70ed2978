import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialects } from '../../../test/helpers';
import { emptyDatabases, migrateThrough } from '../../../test/migrations';

describe.each(dialects())('migration 0027-jobs (%s)', (dialect) => {
  const { open } = emptyDatabases(dialect);

  it('renames analysis_jobs to jobs keeping queued work, and still refuses a second job for the same content', async () => {
    const handle = await open();
    await migrateThrough(handle, '0026-membership-consent');
    const now = '2026-01-01T00:00:00.000Z';
    await handle.db
      .insertInto('files')
      .values({
        id: 'f1',
        owner_key: 'olga',
        file_name: 'photo.png',
        name_key: 'photo.png',
        size: 10,
        content_type: 'image/png',
        sha256: 'sha-1',
        blob_key: 'files/f1',
        upload_date: now,
        folder_id: null,
        workspace_id: null,
        uploaded_by: null,
      })
      .execute();
    const job = {
      kind: 'image',
      file_id: 'f1',
      content_sha: 'sha-1',
      state: 'queued' as const,
      attempts: 0,
      run_after: now,
      locked_by: null,
      locked_until: null,
      progress: 0,
      last_error: null,
      created_at: now,
      updated_at: now,
    };
    // Before 0027 the table has its old name: write the row as it was then.
    await sql`insert into analysis_jobs (id, kind, file_id, content_sha, state, attempts, run_after, progress,
      created_at, updated_at) values ('j1', ${job.kind}, ${job.file_id}, ${job.content_sha}, ${job.state}, 0,
      ${now}, 0, ${now}, ${now})`.execute(handle.db);

    await migrateThrough(handle, '0027-jobs');
    expect(await handle.db.selectFrom('jobs').selectAll().execute()).toEqual([
      expect.objectContaining({ id: 'j1', kind: 'image', file_id: 'f1', state: 'queued' }),
    ]);
    // The unique index came along: the same file, kind and content cannot be queued twice.
    await expect(
      handle.db
        .insertInto('jobs')
        .values({ ...job, id: 'j2' })
        .execute(),
    ).rejects.toThrow();
    await expect(sql`select 1 from analysis_jobs`.execute(handle.db)).rejects.toThrow();
    const indexes =
      dialect === 'postgres'
        ? sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'jobs'`
        : sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'jobs'`;
    const names = (await indexes.execute(handle.db)).rows.map((row) => row.name);
    expect(names).toEqual(expect.arrayContaining(['jobs_identity', 'jobs_claim']));
    expect(names.filter((name) => name.startsWith('analysis_jobs'))).toEqual([]);
    // Jobs still go with their file.
    await handle.db.deleteFrom('files').where('id', '=', 'f1').execute();
    expect(await handle.db.selectFrom('jobs').selectAll().execute()).toEqual([]);
  });
});

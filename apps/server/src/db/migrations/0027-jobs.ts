import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * One job queue (`jobs/queue.ts`): the table of migration 0018 held thumbnail jobs beside the analysis ones under the
 * name `analysis_jobs`; it is renamed `jobs` with its indexes, keeping every row (queued work runs after the upgrade).
 * PostgreSQL renames indexes in place; SQLite cannot, so its indexes are made again under the new names.
 */
const INDEXES = [
  { name: 'identity', columns: ['file_id', 'kind', 'content_sha'], unique: true },
  { name: 'claim', columns: ['kind', 'state', 'run_after'], unique: false },
] as const;

async function rename(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  await db.schema.alterTable(from).renameTo(to).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const index of [...INDEXES.map((i) => i.name), 'pkey'])
      await sql`alter index if exists ${sql.id(`${from}_${index}`)} rename to ${sql.id(`${to}_${index}`)}`.execute(db);
    return;
  }
  for (const index of INDEXES) {
    await db.schema.dropIndex(`${from}_${index.name}`).ifExists().execute();
    let create = db.schema
      .createIndex(`${to}_${index.name}`)
      .on(to)
      .columns([...index.columns]);
    if (index.unique) create = create.unique();
    await create.execute();
  }
}

export const m0027Jobs: Migration = {
  up: (db) => rename(db, 'analysis_jobs', 'jobs'),
  down: (db) => rename(db, 'jobs', 'analysis_jobs'),
};

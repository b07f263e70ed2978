import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The vector index of "Ask your files" (docs/PRODUCT.md#ask-your-files), kept in the database so every instance
 * reads the same one. Passages' vectors move to `passage_vectors` (with the passage, by its key), beside each one's
 * cell — generation × 65,536 + cell, null before any training — and `seq`, the number of its last change (a sequence
 * on PostgreSQL, the highest + 1 on SQLite), so an instance's copy in memory (`vector-cache.ts`) reads only what
 * changed since it last looked. Apart from `passages` so that writing a cell or a change number rewrites neither a
 * passage nor its full-text index entries (PostgreSQL writes every index of a row it updates: re-training 300,000
 * passages in place tripled the time of the word search, docs/BENCHMARKS.md). `vector_cells` holds the centres of the
 * cells, per embedder and training (`generation`).
 */
export const m0047VectorCells: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await sql`create table passage_vectors (
        passage_id ${postgres ? sql`bigint` : sql`integer`} primary key
          references passages(passage_id) on delete cascade,
        label text not null,
        vector ${postgres ? sql`bytea` : sql`blob`} not null,
        cell integer,
        seq ${postgres ? sql`bigint` : sql`integer`}
      )`.execute(db);
    await sql`insert into passage_vectors (passage_id, label, vector)
      select passage_id, vector_label, vector from passages
      where vector is not null and vector_label is not null`.execute(db);
    await sql`alter table passages drop column vector`.execute(db);
    await sql`alter table passages drop column vector_label`.execute(db);
    await sql`create index passage_vectors_cell on passage_vectors (label, cell)`.execute(db);
    await sql`create index passage_vectors_seq on passage_vectors (seq, passage_id)`.execute(db);
    if (postgres) await sql`create sequence passage_vector_changes`.execute(db);
    await sql`create table vector_cells (
        label text not null,
        generation integer not null,
        cell integer not null,
        centroid ${postgres ? sql`bytea` : sql`blob`} not null,
        primary key (label, generation, cell)
      )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await sql`drop table if exists vector_cells`.execute(db);
    await sql`alter table passages add column vector ${postgres ? sql`bytea` : sql`blob`}`.execute(db);
    await sql`alter table passages add column vector_label text`.execute(db);
    await sql`update passages set vector = (select v.vector from passage_vectors v
        where v.passage_id = passages.passage_id),
      vector_label = (select v.label from passage_vectors v where v.passage_id = passages.passage_id)`.execute(db);
    await sql`drop table if exists passage_vectors`.execute(db);
    if (postgres) await sql`drop sequence if exists passage_vector_changes`.execute(db);
  },
};

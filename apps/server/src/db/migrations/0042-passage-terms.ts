import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Document frequencies for "Ask your files" on PostgreSQL (docs/PRODUCT.md#ask-your-files): `ts_rank_cd` has no
 * inverse document frequency, so retrieval weighs each question term by BM25's idf — how many passages hold it.
 * Counting that over `passages` on every question grows with the passages; `passage_terms` keeps it instead: one row
 * per lexeme of `text_tsv` with the number of passages holding it, and the row `''` (never a lexeme) with the number
 * of passages. Triggers keep it in step as passages are written and deleted (statement-level, over the transition
 * tables, so a file's passages or a bulk write cost one upsert per distinct lexeme; the rows are locked in term
 * order, so two writers cannot deadlock). `term` is in the "C" collation so a prefix (`term like 'termin%'`) is an
 * index range. SQLite needs none of this: FTS5's `bm25` keeps its own statistics.
 */
export const m0042PassageTerms: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`create table passage_terms (
      term text collate "C" primary key,
      passages bigint not null
    )`.execute(db);
    // Adds `delta` per passage of `source` (a table of passages, or one row) to the counts of its lexemes.
    const change = (delta: number, source: string) => `
      insert into passage_terms (term, passages)
      select term, ${delta} * count(*) from (
        select t.lexeme as term from ${source} p, unnest(p.text_tsv) t
        union all
        select '' from ${source} p
      ) s group by term order by term
      on conflict (term) do update set passages = passage_terms.passages + excluded.passages;`;
    await sql`create function atrium_passage_terms_insert() returns trigger language plpgsql as $$
      begin ${sql.raw(change(1, 'new_passages'))} return null; end $$`.execute(db);
    await sql`create function atrium_passage_terms_delete() returns trigger language plpgsql as $$
      begin ${sql.raw(change(-1, 'old_passages'))} return null; end $$`.execute(db);
    await sql`create function atrium_passage_terms_update() returns trigger language plpgsql as $$
      begin
        ${sql.raw(change(-1, '(select old.text_tsv)'))}
        ${sql.raw(change(1, '(select new.text_tsv)'))}
        return null;
      end $$`.execute(db);
    await sql`create trigger passage_terms_insert after insert on passages
      referencing new table as new_passages for each statement
      execute function atrium_passage_terms_insert()`.execute(db);
    await sql`create trigger passage_terms_delete after delete on passages
      referencing old table as old_passages for each statement
      execute function atrium_passage_terms_delete()`.execute(db);
    await sql`create trigger passage_terms_update after update of text_tsv on passages
      for each row when (old.text_tsv is distinct from new.text_tsv)
      execute function atrium_passage_terms_update()`.execute(db);
    await sql.raw(change(1, 'passages')).execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`drop table if exists passage_terms`.execute(db);
    for (const name of ['insert', 'delete', 'update']) {
      await sql`drop trigger if exists ${sql.raw(`passage_terms_${name}`)} on passages`.execute(db);
      await sql`drop function if exists ${sql.raw(`atrium_passage_terms_${name}`)}()`.execute(db);
    }
  },
};

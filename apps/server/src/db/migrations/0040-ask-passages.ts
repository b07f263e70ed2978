import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Passages for "Ask your files" (docs/PRODUCT.md#ask-your-files): what analysis read in a file, cut into passages of
 * about 100–250 words with where each came from (PDF page, transcript start and end seconds, OCR region), beside the
 * search index and in the database's own engine:
 * - SQLite: `passages` and the FTS5 table `passages_fts` (rowid = `passage_id`), kept in step by triggers;
 * - PostgreSQL: a `text_tsv` column (the search's `atrium_search_words`, migration 0017) with a GIN index.
 * A passage goes with its file (`on delete cascade`); who may read it is the file's search document at query time
 * (moves, shares, trash follow the search triggers). `vector`: the passage's embedding (little-endian float32),
 * when an embedder is configured; `vector_label` names it, so another embedder's vectors are never compared.
 */
export const m0040AskPassages: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    if (postgres) {
      await sql`create table passages (
        passage_id bigserial primary key,
        file_id text not null references files(id) on delete cascade,
        ordinal integer not null,
        text text not null,
        page integer,
        start_seconds double precision,
        end_seconds double precision,
        region text,
        text_tsv tsvector not null,
        vector bytea,
        vector_label text
      )`.execute(db);
      await sql`create index passages_tsv on passages using gin (text_tsv)`.execute(db);
    } else {
      await sql`create table passages (
        passage_id integer primary key,
        file_id text not null references files(id) on delete cascade,
        ordinal integer not null,
        text text not null,
        page integer,
        start_seconds real,
        end_seconds real,
        region text,
        vector blob,
        vector_label text
      )`.execute(db);
      await sql`create virtual table passages_fts using fts5(
        text, tokenize = 'unicode61 remove_diacritics 2'
      )`.execute(db);
      await sql`create trigger passages_fts_insert after insert on passages begin
        insert into passages_fts(rowid, text) values (new.passage_id, new.text);
      end`.execute(db);
      await sql`create trigger passages_fts_delete after delete on passages begin
        delete from passages_fts where rowid = old.passage_id;
      end`.execute(db);
    }
    await sql`create index passages_file on passages (file_id, ordinal)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists passages`.execute(db);
    await sql`drop table if exists passages_fts`.execute(db);
  },
};

import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * How many passages hold a word, on SQLite (docs/PRODUCT.md#ask-your-files): FTS5's own vocabulary of
 * `passages_fts` as a read-only table (`fts5vocab`, type `row`: `term`, `doc` — the passages holding it, `cnt`).
 * Retrieval leaves a question's commonest words out of the search when a passage cannot be relevant through them
 * alone (`retrieval.ts`); a range of terms is an index read. PostgreSQL keeps the same counts in `passage_terms`
 * (migration 0042).
 */
export const m0044PassageVocab: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    await sql`create virtual table passages_vocab using fts5vocab(passages_fts, 'row')`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    await sql`drop table if exists passages_vocab`.execute(db);
  },
};

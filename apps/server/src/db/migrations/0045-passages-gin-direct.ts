import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The passages' full-text index written directly on PostgreSQL (docs/PRODUCT.md#ask-your-files). A GIN index keeps new
 * entries in a pending list by default (`fastupdate`), which every search then reads through whole: up to 4 MB,
 * about 5 ms per word group of a question, several groups per question (docs/BENCHMARKS.md, Ask at 100,000 files).
 * Passages are written by background analysis, where a slower insert costs nobody a wait. The entries pending now are
 * moved into the index.
 */
export const m0045PassagesGinDirect: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`alter index passages_tsv set (fastupdate = off)`.execute(db);
    await sql`select gin_clean_pending_list('passages_tsv'::regclass)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`alter index passages_tsv reset (fastupdate)`.execute(db);
  },
};

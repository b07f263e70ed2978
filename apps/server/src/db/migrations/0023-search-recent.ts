import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Search by content (docs/PRODUCT.md#search) on PostgreSQL, in two phases as `search.repository.ts` runs it: names
 * first, then the content matches newest first, stopping at the page's end.
 * - `all_tsv`: the name's words and the content's together (generated, GIN-indexed), so a file whose words are part
 *   in its name and part in its content matches as in SQLite's FTS5, with one condition the planner estimates well.
 * - `search_documents_recent` (`modified_at desc, item_id`): for a word most files contain, the planner walks this
 *   and stops after a page instead of fetching and sorting every match; a rare word still goes through GIN.
 * SQLite walks FTS5 in its own (rowid) order and needs neither.
 */
export const m0023SearchRecent: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`alter table search_documents add column all_tsv tsvector
      generated always as (name_tsv || coalesce(content_tsv, ''::tsvector)) stored`.execute(db);
    await sql`create index search_documents_all on search_documents using gin (all_tsv)`.execute(db);
    await sql`create index search_documents_recent on search_documents (modified_at desc, item_id)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`drop index if exists search_documents_recent`.execute(db);
    await sql`drop index if exists search_documents_all`.execute(db);
    await sql`alter table search_documents drop column if exists all_tsv`.execute(db);
  },
};

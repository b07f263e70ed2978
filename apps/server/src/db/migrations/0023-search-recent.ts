import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Search by content (issue 17) takes the content matches newest first and stops at the page's end. On PostgreSQL an
 * index in that order lets the planner walk it for a word most files contain (instead of fetching and sorting every
 * match); a rare word still goes through the GIN index. SQLite walks FTS5 in its own (rowid) order and needs nothing.
 */
export const m0023SearchRecent: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`create index search_documents_recent on search_documents (modified_at desc, item_id)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`drop index if exists search_documents_recent`.execute(db);
  },
};

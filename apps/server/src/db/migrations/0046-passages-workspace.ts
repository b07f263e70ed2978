import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Each passage's workspace beside it on PostgreSQL (docs/PRODUCT.md#ask-your-files), so a question within one workspace
 * reads that workspace's matches only: the index on it and the full-text index are intersected. Without it the search
 * read the table's matches in their order until enough of them were the workspace's, and a workspace whose files were
 * added after most of the others' was reached last (0.6–1.4 s for one question at 100,000 files, docs/BENCHMARKS.md).
 * Kept by triggers from the file's search document, which the search triggers keep in step with moves between spaces:
 * a passage takes it when written, and every passage of a file follows when the document's workspace changes. Only a
 * filter that narrows the search: who may read a passage is still decided by the search document at query time.
 */
export const m0046PassagesWorkspace: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`alter table passages add column workspace_id text`.execute(db);
    await sql`update passages p set workspace_id = d.workspace_id from search_documents d
      where d.item_id = p.file_id and d.kind = 'file' and d.workspace_id is not null`.execute(db);
    await sql`create index passages_workspace on passages (workspace_id) where workspace_id is not null`.execute(db);
    // The planner's counts of the new column now: guessing a workspace held a few passages, it read all of one's
    // passages to test each against the question (1.1–1.6 s at 100,000 files) instead of intersecting two indexes.
    await sql`analyze passages`.execute(db);
    await sql`create function atrium_passage_workspace() returns trigger language plpgsql as $$
      begin
        new.workspace_id := (select d.workspace_id from search_documents d
          where d.item_id = new.file_id and d.kind = 'file');
        return new;
      end $$`.execute(db);
    await sql`create trigger passages_workspace before insert on passages
      for each row execute function atrium_passage_workspace()`.execute(db);
    await sql`create function atrium_document_passages_workspace() returns trigger language plpgsql as $$
      begin
        update passages set workspace_id = new.workspace_id
          where file_id = new.item_id and workspace_id is distinct from new.workspace_id;
        return null;
      end $$`.execute(db);
    await sql`create trigger search_documents_passages_workspace
      after insert or update of workspace_id on search_documents
      for each row when (new.kind = 'file') execute function atrium_document_passages_workspace()`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`drop trigger if exists search_documents_passages_workspace on search_documents`.execute(db);
    await sql`drop function if exists atrium_document_passages_workspace()`.execute(db);
    await sql`drop trigger if exists passages_workspace on passages`.execute(db);
    await sql`drop function if exists atrium_passage_workspace()`.execute(db);
    await sql`alter table passages drop column if exists workspace_id`.execute(db);
  },
};

import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Each passage's workspace inside SQLite's full-text index (docs/PRODUCT.md#ask-your-files), as PostgreSQL keeps it
 * beside the passage (migration 0046): `passages_fts` gets a second column, `space`, holding one token for the
 * passage's workspace (`w` and the workspace's id without its hyphens; empty in a personal space), so a question
 * within one workspace matches and ranks that workspace's passages only. Before, FTS5 ranked every match and the
 * workspace's fifth of them was picked after (a question's rarest-words tier: ~3× longer, docs/BENCHMARKS.md, Ask at
 * 100,000 files). FTS5 cannot add a column, so the index is built again from `passages` (~20 s per 300,000 passages
 * on 2 cores). Kept by triggers: a passage takes its file's workspace when written, and every passage of a file
 * follows when the file's search document changes workspace (the search triggers keep that in step with moves). The
 * token only narrows the search: who may read a passage is still decided by the search document at query time.
 */
const token = (column: 'new.workspace_id' | 'd.workspace_id') =>
  sql`coalesce('w' || lower(replace(${sql.raw(column)}, '-', '')), '')`;

export const m0048PassagesSpace: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    await rebuild(db, true);
    await sql`create trigger passages_space_document after insert on search_documents
      when new.kind = 'file' begin
        update passages_fts set space = ${token('new.workspace_id')}
          where rowid in (select passage_id from passages where file_id = new.item_id);
      end`.execute(db);
    await sql`create trigger passages_space_move after update of workspace_id on search_documents
      when new.kind = 'file' and new.workspace_id is not old.workspace_id begin
        update passages_fts set space = ${token('new.workspace_id')}
          where rowid in (select passage_id from passages where file_id = new.item_id);
      end`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    await sql`drop trigger if exists passages_space_move`.execute(db);
    await sql`drop trigger if exists passages_space_document`.execute(db);
    await rebuild(db, false);
  },
};

/** `passages_fts` (and its vocabulary, migration 0044) made again from `passages`, with or without `space`. */
async function rebuild(db: Kysely<unknown>, space: boolean): Promise<void> {
  await sql`drop table if exists passages_vocab`.execute(db);
  await sql`drop trigger if exists passages_fts_insert`.execute(db);
  await sql`drop table if exists passages_fts`.execute(db);
  const columns = space ? sql`text, space` : sql`text`;
  await sql`create virtual table passages_fts using fts5(
    ${columns}, tokenize = 'unicode61 remove_diacritics 2'
  )`.execute(db);
  if (space) {
    await sql`insert into passages_fts(rowid, text, space)
      select p.passage_id, p.text, ${token('d.workspace_id')} from passages p
      left join search_documents d on d.item_id = p.file_id and d.kind = 'file'`.execute(db);
    await sql`create trigger passages_fts_insert after insert on passages begin
      insert into passages_fts(rowid, text, space) values (new.passage_id, new.text,
        coalesce((select ${token('d.workspace_id')} from search_documents d
          where d.item_id = new.file_id and d.kind = 'file'), ''));
    end`.execute(db);
  } else {
    await sql`insert into passages_fts(rowid, text) select passage_id, text from passages`.execute(db);
    await sql`create trigger passages_fts_insert after insert on passages begin
      insert into passages_fts(rowid, text) values (new.passage_id, new.text);
    end`.execute(db);
  }
  await sql`create virtual table passages_vocab using fts5vocab(passages_fts, 'row')`.execute(db);
}

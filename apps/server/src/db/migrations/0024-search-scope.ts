import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Search by content on SQLite (docs/PRODUCT.md#search): the FTS5 row also holds where its document is, as three tokens
 * in a third column `scope` (`scopeTokens` in `search.repository.ts` makes the same in TypeScript): its space (`w` +
 * the workspace id in hex, or `o` + the personal space's owner key in hex), the folder holding it (`p` + id in hex) and
 * itself (`i` + id in hex) — letters and digits only, so the tokenizer keeps each whole. A content search then asks
 * FTS5 for the words AND one of the searcher's spaces (then AND one of the folders or items shares reach them), and
 * the engine intersects the lists itself instead of the query walking, in rowid order, through every document the
 * searcher cannot see (20,000 of them cost ~45 ms for a word in every file). Who may see a row is still decided by
 * the one SQL condition (`readableScope`). PostgreSQL needs none of it (migration 0023).
 *
 * FTS5 cannot add a column: the table is made again from `search_documents`, which holds the name and content; the
 * insert triggers of migration 0017 are replaced by ones that also write `scope`, and `scope` triggers keep it in step
 * (a file or folder moved to another folder or space).
 */
export const m0024SearchScope: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    await rebuild(db, true);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) return;
    await rebuild(db, false);
  },
};

/**
 * The `scope` tokens of a row (of `files` or `folders`, or a search document), as `scopeTokens` makes them; `place`
 * and `id` name its folder and id columns.
 */
const scope = (row: string, place: string, id = 'id') =>
  `case when ${row}.workspace_id is not null then 'w' || lower(hex(${row}.workspace_id))
    when ${row}.owner_key is not null then 'o' || lower(hex(${row}.owner_key)) else '' end
    || ' p' || lower(hex(coalesce(${row}.${place}, ''))) || ' i' || lower(hex(${row}.${id}))`;

/** As in migration 0017: [table, kind, name, folder holding it, modified, size, type]. */
const SOURCES = [
  ['files', 'file', 'file_name', 'folder_id', 'upload_date', 'size', 'content_type'],
  ['folders', 'folder', 'name', 'parent_id', 'updated_at', 'null', 'null'],
] as const;

async function rebuild(db: Kysely<unknown>, withScope: boolean) {
  for (const [table] of SOURCES) {
    // The other triggers of 0017 stay: `update` writes only `search_documents`, and `rename` and `delete` name
    // `search_fts` in their bodies, which SQLite resolves when they run (the table made again here).
    for (const trigger of ['insert', 'scope']) {
      await sql.raw(`drop trigger if exists search_${table}_${trigger}`).execute(db);
    }
  }
  await sql`drop table if exists search_fts`.execute(db);
  const columns = withScope ? 'name, content, scope' : 'name, content';
  await sql
    .raw(
      `create virtual table search_fts using fts5(
        ${columns}, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4'
      )`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into search_fts (rowid, ${columns})
        select d.doc_id, d.name, coalesce(d.content, '')${withScope ? `, ${scope('d', 'place_id', 'item_id')}` : ''}
        from search_documents d order by d.doc_id`,
    )
    .execute(db);
  for (const [table, kind, name, place, modified, size, type] of SOURCES) {
    const doc = '(select doc_id from search_documents where item_id = new.id)';
    const values =
      `'${kind}', new.id, new.${name}, new.workspace_id, new.owner_key, new.${place}, new.${modified}, ` +
      `${size === 'null' ? 'null' : `new.${size}`}, ${type === 'null' ? 'null' : `new.${type}`}, new.trashed_at`;
    // The document first, then its FTS5 row (whose rowid is the document's id): one trigger, so in this order.
    await sql
      .raw(
        `create trigger search_${table}_insert after insert on ${table} begin
          insert into search_documents (kind, item_id, name, workspace_id, owner_key, place_id, modified_at, size,
            content_type, trashed_at) values (${values});
          insert into search_fts (rowid, ${columns})
            values (${doc}, new.${name}, ''${withScope ? `, ${scope('new', place)}` : ''});
        end`,
      )
      .execute(db);
    if (withScope) {
      await sql
        .raw(
          `create trigger search_${table}_scope after update of workspace_id, owner_key, ${place} on ${table}
            when new.workspace_id is not old.workspace_id or new.owner_key is not old.owner_key
              or new.${place} is not old.${place} begin
            update search_fts set scope = ${scope('new', place)} where rowid = ${doc};
          end`,
        )
        .execute(db);
    }
  }
}

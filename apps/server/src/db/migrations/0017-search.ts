import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * Full-text search (issue 16) over the names of files and folders and a content text per file (empty until the
 * background analysis sets it), in the database's own engine:
 *
 * - SQLite: `search_documents` (one row per file or folder: its kind, id and content) and the FTS5 table
 *   `search_fts` (`name`, `content`; unicode61, prefix indexes of 2–4 characters for search as you type), whose
 *   rowid is the document's `doc_id`.
 * - PostgreSQL: `search_documents` with `name_tsv` and `content_tsv` (`simple` configuration, punctuation read as a
 *   word break so `report.pdf` is `report` + `pdf` as in SQLite), each with a GIN index.
 *
 * Triggers on `files` and `folders` keep the names in step with every write (insert, rename, delete — cascades
 * included), whatever code path makes it; the content is written only by the search service's `setContent`.
 */
export const m0017Search: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) await upPostgres(db);
    else await upSqlite(db);
  },
  async down(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`drop trigger if exists search_files_sync on files`.execute(db);
      await sql`drop trigger if exists search_folders_sync on folders`.execute(db);
      await sql`drop function if exists atrium_search_sync()`.execute(db);
      await sql`drop table if exists search_documents`.execute(db);
      await sql`drop function if exists atrium_search_words(text)`.execute(db);
      return;
    }
    for (const trigger of [
      'search_files_insert',
      'search_files_rename',
      'search_files_delete',
      'search_folders_insert',
      'search_folders_rename',
      'search_folders_delete',
    ]) {
      await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
    }
    await sql`drop table if exists search_fts`.execute(db);
    await sql`drop table if exists search_documents`.execute(db);
  },
};

async function upSqlite(db: Kysely<unknown>) {
  await sql`create table search_documents (
    doc_id integer primary key,
    kind text not null,
    item_id text not null unique,
    content text
  )`.execute(db);
  await sql`create virtual table search_fts using fts5(
    name, content, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4'
  )`.execute(db);
  for (const [table, kind, column] of [
    ['files', 'file', 'file_name'],
    ['folders', 'folder', 'name'],
  ] as const) {
    await sql
      .raw(
        `create trigger search_${table}_insert after insert on ${table} begin
          insert into search_documents (kind, item_id) values ('${kind}', new.id);
          insert into search_fts (rowid, name, content)
            values ((select doc_id from search_documents where item_id = new.id), new.${column}, '');
        end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger search_${table}_rename after update of ${column} on ${table}
          when new.${column} is not old.${column} begin
          update search_fts set name = new.${column}
            where rowid = (select doc_id from search_documents where item_id = new.id);
        end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger search_${table}_delete after delete on ${table} begin
          delete from search_fts where rowid = (select doc_id from search_documents where item_id = old.id);
          delete from search_documents where item_id = old.id;
        end`,
      )
      .execute(db);
    await sql
      .raw(`insert into search_documents (kind, item_id) select '${kind}', id from ${table} order by id`)
      .execute(db);
    await sql
      .raw(
        `insert into search_fts (rowid, name, content)
          select d.doc_id, t.${column}, '' from ${table} t join search_documents d on d.item_id = t.id`,
      )
      .execute(db);
  }
}

async function upPostgres(db: Kysely<unknown>) {
  // Punctuation and spaces are word breaks (as SQLite's unicode61 reads them); the `simple` configuration only
  // lower-cases, so names are matched as typed, in any language.
  await sql`create function atrium_search_words(value text) returns tsvector
    language sql immutable parallel safe
    as $$ select to_tsvector('simple', regexp_replace(coalesce(value, ''), '[[:punct:][:space:]]+', ' ', 'g')) $$`.execute(
    db,
  );
  await sql`create table search_documents (
    item_id text primary key,
    kind text not null,
    name_tsv tsvector not null,
    content text,
    content_tsv tsvector
  )`.execute(db);
  await sql`create index search_documents_name on search_documents using gin (name_tsv)`.execute(db);
  await sql`create index search_documents_content on search_documents using gin (content_tsv)`.execute(db);
  await sql`create function atrium_search_sync() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        delete from search_documents where item_id = old.id;
        return old;
      end if;
      if tg_table_name = 'files' then
        insert into search_documents (item_id, kind, name_tsv)
          values (new.id, 'file', atrium_search_words(new.file_name))
          on conflict (item_id) do update set name_tsv = excluded.name_tsv;
      else
        insert into search_documents (item_id, kind, name_tsv)
          values (new.id, 'folder', atrium_search_words(new.name))
          on conflict (item_id) do update set name_tsv = excluded.name_tsv;
      end if;
      return new;
    end
  $$`.execute(db);
  await sql`create trigger search_files_sync after insert or delete or update of file_name on files
    for each row execute function atrium_search_sync()`.execute(db);
  await sql`create trigger search_folders_sync after insert or delete or update of name on folders
    for each row execute function atrium_search_sync()`.execute(db);
  await sql`insert into search_documents (item_id, kind, name_tsv)
    select id, 'file', atrium_search_words(file_name) from files`.execute(db);
  await sql`insert into search_documents (item_id, kind, name_tsv)
    select id, 'folder', atrium_search_words(name) from folders`.execute(db);
}

import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Full-text search (docs/PRODUCT.md#search) over the names of files and folders and a content text per file (empty
 * until the background analysis sets it), in the database's own engine:
 *
 * `search_documents` holds one row per file or folder with what a search filters, orders and answers on (name,
 * space, folder, modification time, size, type), so a search never joins `files` or `folders` row by row (at
 * 100,000 files that join cost more than the matching), and the content text.
 * - SQLite: the FTS5 table `search_fts` (`name`, `content`; unicode61, prefix indexes of 2–4 characters for
 *   search as you type), whose rowid is the document's `doc_id`.
 * - PostgreSQL: `name_tsv` and `content_tsv` on the document (`simple` configuration, punctuation read as a word
 *   break so `report.pdf` is `report` + `pdf` as in SQLite), each with a GIN index.
 *
 * Triggers on `files` and `folders` keep the documents in step with every write (insert, rename, move, trash and
 * restore (`trashed_at`, migration 0016), delete — cascades included), whatever code path makes it; the content is
 * written only by the search service's `setContent`.
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
      'search_files_update',
      'search_files_delete',
      'search_folders_insert',
      'search_folders_rename',
      'search_folders_update',
      'search_folders_delete',
    ]) {
      await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
    }
    await sql`drop table if exists search_fts`.execute(db);
    await sql`drop table if exists search_documents`.execute(db);
  },
};

/** What each table gives its search document: [table, kind, name, folder holding it, modified, size, type]. */
const SOURCES = [
  ['files', 'file', 'file_name', 'folder_id', 'upload_date', 'size', 'content_type'],
  ['folders', 'folder', 'name', 'parent_id', 'updated_at', 'null', 'null'],
] as const;

async function upSqlite(db: Kysely<unknown>) {
  await sql`create table search_documents (
    doc_id integer primary key,
    kind text not null,
    item_id text not null unique,
    name text not null,
    workspace_id text,
    owner_key text,
    place_id text,
    modified_at text not null,
    size integer,
    content_type text,
    trashed_at text,
    content text
  )`.execute(db);
  await sql`create virtual table search_fts using fts5(
    name, content, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4'
  )`.execute(db);
  for (const [table, kind, name, place, modified, size, type] of SOURCES) {
    const values = (row: 'new' | 't') =>
      `'${kind}', ${row}.id, ${row}.${name}, ${row}.workspace_id, ${row}.owner_key, ${row}.${place}, ${row}.${modified}, ` +
      `${size === 'null' ? 'null' : `${row}.${size}`}, ${type === 'null' ? 'null' : `${row}.${type}`}, ${row}.trashed_at`;
    const columns =
      'kind, item_id, name, workspace_id, owner_key, place_id, modified_at, size, content_type, trashed_at';
    const watched = [
      name,
      place,
      'workspace_id',
      'owner_key',
      modified,
      'trashed_at',
      ...(size === 'null' ? [] : [size, type]),
    ];
    await sql
      .raw(
        `create trigger search_${table}_insert after insert on ${table} begin
          insert into search_documents (${columns}) values (${values('new')});
          insert into search_fts (rowid, name, content)
            values ((select doc_id from search_documents where item_id = new.id), new.${name}, '');
        end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger search_${table}_update after update of ${watched.join(', ')} on ${table} begin
          update search_documents set name = new.${name}, workspace_id = new.workspace_id,
            owner_key = new.owner_key, place_id = new.${place}, modified_at = new.${modified},
            trashed_at = new.trashed_at
            ${size === 'null' ? '' : `, size = new.${size}, content_type = new.${type}`}
          where item_id = new.id;
        end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger search_${table}_rename after update of ${name} on ${table}
          when new.${name} is not old.${name} begin
          update search_fts set name = new.${name}
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
      .raw(`insert into search_documents (${columns}) select ${values('t')} from ${table} t order by t.id`)
      .execute(db);
    await sql
      .raw(
        `insert into search_fts (rowid, name, content)
          select d.doc_id, d.name, '' from search_documents d where d.kind = '${kind}'`,
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
    name text not null,
    workspace_id text,
    owner_key text,
    place_id text,
    modified_at text not null,
    size bigint,
    content_type text,
    trashed_at text,
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
        insert into search_documents
            (item_id, kind, name, workspace_id, owner_key, place_id, modified_at, size, content_type, trashed_at,
              name_tsv)
          values (new.id, 'file', new.file_name, new.workspace_id, new.owner_key, new.folder_id, new.upload_date,
            new.size, new.content_type, new.trashed_at, atrium_search_words(new.file_name))
          on conflict (item_id) do update set name = excluded.name, workspace_id = excluded.workspace_id,
            owner_key = excluded.owner_key, place_id = excluded.place_id, modified_at = excluded.modified_at,
            size = excluded.size, content_type = excluded.content_type, trashed_at = excluded.trashed_at,
            name_tsv = excluded.name_tsv;
      else
        insert into search_documents
            (item_id, kind, name, workspace_id, owner_key, place_id, modified_at, trashed_at, name_tsv)
          values (new.id, 'folder', new.name, new.workspace_id, new.owner_key, new.parent_id, new.updated_at,
            new.trashed_at, atrium_search_words(new.name))
          on conflict (item_id) do update set name = excluded.name, workspace_id = excluded.workspace_id,
            owner_key = excluded.owner_key, place_id = excluded.place_id, modified_at = excluded.modified_at,
            trashed_at = excluded.trashed_at, name_tsv = excluded.name_tsv;
      end if;
      return new;
    end
  $$`.execute(db);
  await sql`create trigger search_files_sync after insert or delete
    or update of file_name, folder_id, workspace_id, owner_key, upload_date, size, content_type, trashed_at on files
    for each row execute function atrium_search_sync()`.execute(db);
  await sql`create trigger search_folders_sync after insert or delete
    or update of name, parent_id, workspace_id, owner_key, updated_at, trashed_at on folders
    for each row execute function atrium_search_sync()`.execute(db);
  await sql`insert into search_documents
      (item_id, kind, name, workspace_id, owner_key, place_id, modified_at, size, content_type, trashed_at, name_tsv)
    select id, 'file', file_name, workspace_id, owner_key, folder_id, upload_date, size, content_type, trashed_at,
      atrium_search_words(file_name) from files`.execute(db);
  await sql`insert into search_documents
      (item_id, kind, name, workspace_id, owner_key, place_id, modified_at, trashed_at, name_tsv)
    select id, 'folder', name, workspace_id, owner_key, parent_id, updated_at, trashed_at, atrium_search_words(name)
    from folders`.execute(db);
}

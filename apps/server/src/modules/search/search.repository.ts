import type { FileKind } from '@atrium/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { UserActor } from '../../auth/actor';
import type { Db, Dialect } from '../../db';
import { fileKindCondition } from '../../lib/file-kind-sql';
import { readableScope } from '../spaces/access';

/** Longest content text kept per file, in characters (PostgreSQL's tsvector holds at most 1 MB). */
export const CONTENT_MAX = 200_000;

/** One matching file or folder the caller may see, before presentation. */
export interface SearchHitRow {
  kind: 'file' | 'folder';
  id: string;
  name: string;
  name_hit: number;
  /** The content text, for a match in the content only. */
  content: string | null;
  modified_at: string;
  size: number | null;
  content_type: string | null;
  workspace_id: string | null;
  workspace_name: string | null;
  owner_key: string | null;
  /** The folder holding the item (a file's folder, a folder's parent). */
  place_id: string | null;
  /** 1: the caller's own or in one of their workspaces; 0: reached only through a share. */
  in_own_spaces: number;
}

export interface SearchFilters {
  type?: FileKind | undefined;
  /** Inclusive lower bound on the modification time (ISO-8601). */
  from?: string | undefined;
  /** Exclusive upper bound (ISO-8601). */
  toExclusive?: string | undefined;
  /** `personal`, `shared` or a workspace id. */
  space?: string | undefined;
}

/** A folder on the way up from a result's folder (`start_id`) to its space's root. */
export interface ChainRow {
  start_id: string;
  id: string;
  parent_id: string | null;
  name: string;
  depth: number;
}

/**
 * The queries of search, one layer over both engines: SQLite FTS5 (`search_fts`) and PostgreSQL `tsvector` (GIN),
 * on the documents of migration 0017. Only the matching step differs; who may see a row, the filters and the order
 * are one SQL, over the documents alone (no per-row join with `files` or `folders`).
 */
export function createSearchRepository(db: Db, dialect: Dialect) {
  /** `matched`: every document whose name or content has all `terms` (a prefix each), with `name_hit`. */
  function matched(terms: string[]): RawBuilder<unknown> {
    const columns = sql`d.kind, d.item_id, d.name, d.workspace_id, d.owner_key, d.place_id, d.modified_at, d.size,
      d.content_type, d.trashed_at`;
    if (dialect === 'sqlite') {
      // Terms hold only letters, digits and marks (`searchTerms`), so quoting them cannot inject FTS5 syntax.
      const expression = terms.map((term) => `"${term}"*`).join(' ');
      return sql`matched as (
        select ${columns}, case when search_fts.rowid in (
            select rowid from search_fts where search_fts match ${`name : (${expression})`}
          ) then 1 else 0 end as name_hit
        from search_fts join search_documents d on d.doc_id = search_fts.rowid
        where search_fts match ${expression}
      )`;
    }
    const query = terms.map((term) => `'${term}':*`).join(' & ');
    return sql`matched as (
      select ${columns}, case when d.name_tsv @@ q.q then 1 else 0 end as name_hit
      from search_documents d, (select to_tsquery('simple', ${query}) as q) q
      where d.name_tsv @@ q.q or d.content_tsv @@ q.q
    )`;
  }

  return {
    /**
     * One page of what `actor` may see among the documents matching `terms`: name matches first, then names that
     * start with the first term, then the most recently modified.
     */
    async search(
      actor: UserActor,
      terms: string[],
      filters: SearchFilters,
      page: { offset: number; limit: number },
    ): Promise<SearchHitRow[]> {
      const scope = readableScope(actor);
      const conditions: RawBuilder<unknown>[] = [
        // Who may see a document: the ONE place. Never a space's root folder, never what is in the trash (trashing
        // a folder marks everything inside it, and the triggers copy `trashed_at`).
        scope.document('m'),
        sql`not (m.kind = 'folder' and m.place_id is null)`,
        sql`m.trashed_at is null`,
      ];
      if (filters.type !== undefined) {
        conditions.push(sql`m.kind = 'file'`, fileKindCondition(filters.type, sql.ref('m.content_type')));
      }
      if (filters.from !== undefined) conditions.push(sql`m.modified_at >= ${filters.from}`);
      if (filters.toExclusive !== undefined) conditions.push(sql`m.modified_at < ${filters.toExclusive}`);
      if (filters.space === 'personal') {
        conditions.push(sql`m.workspace_id is null and m.owner_key = ${actor.ownerKey}`);
      } else if (filters.space === 'shared') {
        conditions.push(sql`not ${scope.inOwnSpaces('m')}`);
      } else if (filters.space !== undefined) {
        conditions.push(sql`m.workspace_id = ${filters.space}`);
      }
      const first = `${terms[0] ?? ''}%`;

      const { rows } = await sql<SearchHitRow>`
        with recursive ${scope.ctes}, ${matched(terms)},
        hits as (
          select m.*, case when ${scope.inOwnSpaces('m')} then 1 else 0 end as in_own_spaces
          from matched m
          where ${sql.join(conditions, sql` and `)}
          order by m.name_hit desc, case when lower(m.name) like ${first} then 1 else 0 end desc,
            m.modified_at desc, m.item_id
          limit ${page.limit} offset ${page.offset}
        )
        select hits.kind, hits.item_id as id, hits.name, hits.name_hit, hits.modified_at, hits.size,
          hits.content_type, hits.workspace_id, w.name as workspace_name, hits.owner_key, hits.place_id,
          hits.in_own_spaces, case when hits.name_hit = 1 then null else c.content end as content
        from hits
        left join workspaces w on w.id = hits.workspace_id
        left join search_documents c on c.item_id = hits.item_id
        order by hits.name_hit desc, case when lower(hits.name) like ${first} then 1 else 0 end desc,
          hits.modified_at desc, hits.item_id
      `.execute(db);
      return rows.map((row) => ({
        ...row,
        name_hit: Number(row.name_hit),
        in_own_spaces: Number(row.in_own_spaces),
        size: row.size === null ? null : Number(row.size),
      }));
    },

    /** The folders from each of `folderIds` up to its space's root (depth 0: the folder itself). */
    async chains(folderIds: string[]): Promise<ChainRow[]> {
      if (folderIds.length === 0) return [];
      const { rows } = await sql<ChainRow>`
        with recursive chain(start_id, id, parent_id, name, depth) as (
          select id, id, parent_id, name, 0 from folders where id in (${sql.join(folderIds)})
          union all
          select c.start_id, f.id, f.parent_id, f.name, c.depth + 1
          from folders f join chain c on f.id = c.parent_id
          where c.depth < 1000
        )
        select start_id, id, parent_id, name, depth from chain
      `.execute(db);
      return rows.map((row) => ({ ...row, depth: Number(row.depth) }));
    },

    /** Sets (or clears, with null) the content text of a file; false when the file has no search document. */
    async setContent(fileId: string, text: string | null): Promise<boolean> {
      const content = text === null ? null : text.slice(0, CONTENT_MAX);
      if (dialect === 'sqlite') {
        return db.transaction().execute(async (trx) => {
          const updated = await sql`update search_documents set content = ${content}
            where item_id = ${fileId} and kind = 'file'`.execute(trx);
          if (Number(updated.numAffectedRows ?? 0) === 0) return false;
          await sql`update search_fts set content = ${content ?? ''}
            where rowid = (select doc_id from search_documents where item_id = ${fileId})`.execute(trx);
          return true;
        });
      }
      const updated = await sql`update search_documents
        set content = ${content},
          content_tsv = case when ${content}::text is null then null else atrium_search_words(${content}::text) end
        where item_id = ${fileId} and kind = 'file'`.execute(db);
      return Number(updated.numAffectedRows ?? 0) > 0;
    },
  };
}

export type SearchRepository = ReturnType<typeof createSearchRepository>;

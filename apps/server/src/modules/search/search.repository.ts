import { FILE_KIND_PATTERNS, type FileKind } from '@atrium/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { UserActor } from '../../auth/actor';
import type { Db, Dialect } from '../../db';
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

/** `content_type` is of `kind` (SQL), from the one classification in contracts (`fileKindOf`). */
function kindCondition(kind: Exclude<FileKind, 'other'>, column: RawBuilder<unknown>): RawBuilder<boolean> {
  const { exact, prefixes } = FILE_KIND_PATTERNS[kind];
  const parts = [
    ...prefixes.map((prefix) => sql`lower(${column}) like ${`${prefix}%`}`),
    ...(exact.length > 0 ? [sql`lower(${column}) in (${sql.join(exact)})`] : []),
  ];
  return sql<boolean>`(${sql.join(parts, sql` or `)})`;
}

function typeCondition(kind: FileKind, column: RawBuilder<unknown>): RawBuilder<boolean> {
  if (kind !== 'other') return kindCondition(kind, column);
  const all = (['image', 'audio', 'video', 'document'] as const).map((k) => kindCondition(k, column));
  return sql<boolean>`not (${sql.join(all, sql` or `)})`;
}

/**
 * The queries of search, one layer over both engines: SQLite FTS5 (`search_fts`) and PostgreSQL `tsvector` (GIN),
 * from migration 0017. Only the matching step differs; who may see a row, the filters and the order are one SQL.
 */
export function createSearchRepository(db: Db, dialect: Dialect) {
  /** `matched(item_id, kind, name_hit, score, content)`: every document whose name or content has all `terms`. */
  function matched(terms: string[]): RawBuilder<unknown> {
    if (dialect === 'sqlite') {
      // Terms hold only letters, digits and marks (`searchTerms`), so quoting them cannot inject FTS5 syntax.
      const expression = terms.map((term) => `"${term}"*`).join(' ');
      return sql`matched(item_id, kind, name_hit, score, content) as (
        select d.item_id, d.kind,
          case when search_fts.rowid in (
            select rowid from search_fts where search_fts match ${`name : (${expression})`}
          ) then 1 else 0 end,
          -bm25(search_fts, 10.0, 1.0),
          d.content
        from search_fts join search_documents d on d.doc_id = search_fts.rowid
        where search_fts match ${`{name content} : (${expression})`}
      )`;
    }
    const query = terms.map((term) => `'${term}':*`).join(' & ');
    return sql`matched(item_id, kind, name_hit, score, content) as (
      select d.item_id, d.kind,
        case when d.name_tsv @@ q.q then 1 else 0 end,
        ts_rank(d.name_tsv, q.q) * 10 + coalesce(ts_rank(d.content_tsv, q.q), 0),
        d.content
      from search_documents d, (select to_tsquery('simple', ${query}) as q) q
      where d.name_tsv @@ q.q or d.content_tsv @@ q.q
    )`;
  }

  return {
    /**
     * One page of what `actor` may see among the documents matching `terms`: name matches first, then names that
     * start with the first term, then the engine's relevance, the newest, the id.
     */
    async search(
      actor: UserActor,
      terms: string[],
      filters: SearchFilters,
      page: { offset: number; limit: number },
    ): Promise<SearchHitRow[]> {
      const scope = readableScope(actor);
      // Who may see a row: the ONE place. (Trash adds "not trashed" to both conditions here.)
      const visibleFile = sql`${scope.file('f')}`;
      const visibleFolder = sql`${scope.folder('d')} and d.parent_id is not null`;

      const fileFilters: RawBuilder<unknown>[] = [];
      const folderFilters: RawBuilder<unknown>[] = [];
      if (filters.type !== undefined) {
        fileFilters.push(typeCondition(filters.type, sql.ref('f.content_type')));
        folderFilters.push(sql`1 = 0`);
      }
      if (filters.from !== undefined) {
        fileFilters.push(sql`f.upload_date >= ${filters.from}`);
        folderFilters.push(sql`d.updated_at >= ${filters.from}`);
      }
      if (filters.toExclusive !== undefined) {
        fileFilters.push(sql`f.upload_date < ${filters.toExclusive}`);
        folderFilters.push(sql`d.updated_at < ${filters.toExclusive}`);
      }
      if (filters.space !== undefined) {
        for (const [alias, list] of [
          ['f', fileFilters],
          ['d', folderFilters],
        ] as const) {
          if (filters.space === 'personal') {
            list.push(
              sql`${sql.ref(`${alias}.workspace_id`)} is null and ${sql.ref(`${alias}.owner_key`)} = ${actor.ownerKey}`,
            );
          } else if (filters.space === 'shared') {
            list.push(sql`not ${scope.inOwnSpaces(alias)}`);
          } else {
            list.push(sql`${sql.ref(`${alias}.workspace_id`)} = ${filters.space}`);
          }
        }
      }
      const and = (list: RawBuilder<unknown>[]) =>
        list.length === 0 ? sql`` : sql` and ${sql.join(list, sql` and `)}`;
      const first = `${terms[0] ?? ''}%`;

      const { rows } = await sql<SearchHitRow>`
        with recursive ${scope.ctes}, ${matched(terms)},
        hits as (
          select 'file' as kind, f.id as id, f.file_name as name, m.name_hit as name_hit, m.score as score,
            case when m.name_hit = 1 then null else m.content end as content,
            f.upload_date as modified_at, f.size as size, f.content_type as content_type,
            f.workspace_id as workspace_id, f.owner_key as owner_key, f.folder_id as place_id,
            case when ${scope.inOwnSpaces('f')} then 1 else 0 end as in_own_spaces
          from matched m join files f on f.id = m.item_id
          where m.kind = 'file' and ${visibleFile}${and(fileFilters)}
          union all
          select 'folder', d.id, d.name, m.name_hit, m.score,
            case when m.name_hit = 1 then null else m.content end,
            d.updated_at, null, null,
            d.workspace_id, d.owner_key, d.parent_id,
            case when ${scope.inOwnSpaces('d')} then 1 else 0 end
          from matched m join folders d on d.id = m.item_id
          where m.kind = 'folder' and ${visibleFolder}${and(folderFilters)}
        )
        select hits.kind, hits.id, hits.name, hits.name_hit, hits.content, hits.modified_at, hits.size,
          hits.content_type, hits.workspace_id, w.name as workspace_name, hits.owner_key, hits.place_id,
          hits.in_own_spaces
        from hits left join workspaces w on w.id = hits.workspace_id
        order by hits.name_hit desc,
          case when lower(hits.name) like ${first} then 1 else 0 end desc,
          hits.score desc, hits.modified_at desc, hits.id
        limit ${page.limit} offset ${page.offset}
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

import type { FileKind } from '@atrium/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { UserActor } from '../../auth/actor';
import type { Db, Dialect } from '../../db';
import { fileKindCondition } from '../../lib/file-kind-sql';
import { readableScope } from '../../auth/access-facts';
import { folderAncestorsCte } from '../../db/folder-walk';

/** Longest content text kept per file, in characters (PostgreSQL's tsvector holds at most 1 MB). */
export const CONTENT_MAX = 200_000;

/**
 * An FTS5 `scope` token (migration 0024 writes the same in SQL): `w` a workspace, `o` a personal space (by owner
 * key), `p` the folder holding a document, `i` the document's own file or folder; then the id in hex, so the
 * tokenizer keeps it as one word.
 */
export const scopeToken = (kind: 'w' | 'o' | 'p' | 'i', id: string): string =>
  `${kind}${Buffer.from(id, 'utf8').toString('hex')}`;

/** Shares reaching more folders and files than this are searched by a walk over everything instead. */
export const SHARED_TOKENS_MAX = 1_000;

/**
 * Where an SQLite content search looks: everywhere (`tokens` null), or only in the documents carrying one of
 * `tokens` in their FTS5 `scope` column; `shared`: only rows outside the searcher's own spaces count.
 */
interface Arm {
  tokens: string[] | null;
  shared: boolean;
}
const EVERYWHERE: Arm = { tokens: null, shared: false };

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
  /** The engine's order of a content match (SQLite: the FTS5 rowid); 0 otherwise. */
  engine_order: number;
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
 * on the documents of migration 0017 (and 0023). Only the matching step and the content phase's order differ; who may
 * see a row and the filters are one SQL, over the documents alone (no per-row join with `files` or `folders`).
 */
export function createSearchRepository(
  db: Db,
  dialect: Dialect,
  options: { sharedTokensMax: number } = { sharedTokensMax: SHARED_TOKENS_MAX },
) {
  /**
   * The documents matching `terms` (a prefix each) in one of two phases, which is what keeps a common word fast:
   * - `name`: every term in the name. Names are short, so even a common prefix matches few enough to order them all
   *   (names starting with the first term first, then the most recently modified).
   * - `content`: every term in the name or content, but not all in the name (those came in the first phase). A common
   *   content word matches nearly every file, so these are taken in the engine's own order and the page stops the
   *   scan: SQLite walks FTS5 by descending rowid (the document's `doc_id`, so the most recently indexed first);
   *   PostgreSQL takes them newest first.
   * On SQLite the content phase runs in two arms (`Arm`), so that FTS5 never walks documents the searcher cannot see:
   * the searcher's own spaces (the words AND one of their space tokens, migration 0024), then what shares reach.
   */
  function matched(terms: string[], phase: 'name' | 'content', arm: Arm): RawBuilder<unknown> {
    const columns = sql`d.kind, d.item_id, d.name, d.workspace_id, d.owner_key, d.place_id, d.modified_at, d.size,
      d.content_type, d.trashed_at`;
    if (dialect === 'sqlite') {
      // Terms hold only letters, digits and marks (`searchTerms`), and scope tokens only a letter and hex digits, so
      // quoting them cannot inject FTS5 syntax.
      const expression = terms.map((term) => `"${term}"*`).join(' ');
      const inName = `name : (${expression})`;
      let match = phase === 'name' ? inName : `({name content} : (${expression})) NOT (${inName})`;
      if (arm.tokens !== null) match = `(${match}) AND (scope : (${arm.tokens.map((t) => `"${t}"`).join(' OR ')}))`;
      return sql`matched as (
        select ${columns}, search_fts.rowid as engine_order
        from search_fts join search_documents d on d.doc_id = search_fts.rowid
        where search_fts match ${match}
      )`;
    }
    const query = sql`to_tsquery('simple', ${terms.map((term) => `'${term}':*`).join(' & ')})`;
    // `all_tsv` (migration 0023) holds the name's words and the content's: as in FTS5, each word may be in either.
    const match =
      phase === 'name' ? sql`d.name_tsv @@ ${query}` : sql`d.all_tsv @@ ${query} and not (d.name_tsv @@ ${query})`;
    return sql`matched as (
      select ${columns}, 0 as engine_order
      from search_documents d
      where ${match}
    )`;
  }

  /**
   * What `actor` may see of one phase's matches (`matched m`), with the filters: the `with` list and the condition.
   * The condition is the same for every arm: an arm only narrows where the engine looks.
   */
  function visibleMatches(
    actor: UserActor,
    terms: string[],
    filters: SearchFilters,
    which: 'name' | 'content',
    arm: Arm = EVERYWHERE,
  ) {
    const scope = readableScope(actor);
    const conditions: RawBuilder<unknown>[] = [
      // Who may see a document: the ONE place. Never a space's root folder, never what is in the trash (trashing
      // a folder marks everything inside it, and the triggers copy `trashed_at`).
      scope.document('m'),
      sql`not (m.kind = 'folder' and m.place_id is null)`,
      sql`m.trashed_at is null`,
    ];
    // The shared arm leaves the searcher's own spaces to the other arm.
    if (arm.shared) conditions.push(sql`not ${scope.inOwnSpaces('m')}`);
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
    return {
      with: sql`with recursive ${scope.ctes}, ${matched(terms, which, arm)}`,
      where: sql.join(conditions, sql` and `),
      inOwnSpaces: scope.inOwnSpaces('m'),
    };
  }

  /** The order of a phase's results, on the rows of `alias`. */
  function phaseOrder(terms: string[], which: 'name' | 'content', alias: string): RawBuilder<unknown> {
    const ref = (column: string) => sql.ref(`${alias}.${column}`);
    if (which === 'name') {
      const first = `${terms[0] ?? ''}%`;
      return sql`case when lower(${ref('name')}) like ${first} then 1 else 0 end desc, ${ref('modified_at')} desc,
        ${ref('item_id')}`;
    }
    return dialect === 'sqlite' ? sql`${ref('engine_order')} desc` : sql`${ref('modified_at')} desc, ${ref('item_id')}`;
  }

  /** One page of a phase (of one arm). */
  async function phasePage(
    actor: UserActor,
    terms: string[],
    filters: SearchFilters,
    which: 'name' | 'content',
    page: { offset: number; limit: number },
    arm: Arm = EVERYWHERE,
  ): Promise<SearchHitRow[]> {
    if (page.limit <= 0) return [];
    const visible = visibleMatches(actor, terms, filters, which, arm);
    const { rows } = await sql<Omit<SearchHitRow, 'name_hit'>>`
      ${visible.with},
      hits as (
        select m.*, case when ${visible.inOwnSpaces} then 1 else 0 end as in_own_spaces
        from matched m
        where ${visible.where}
        order by ${phaseOrder(terms, which, 'm')}
        limit ${page.limit} offset ${page.offset}
      )
      select hits.kind, hits.item_id as id, hits.name, hits.modified_at, hits.size, hits.content_type,
        hits.workspace_id, w.name as workspace_name, hits.owner_key, hits.place_id, hits.in_own_spaces,
        hits.engine_order, ${which === 'name' ? sql`null` : sql`c.content`} as content
      from hits
      left join workspaces w on w.id = hits.workspace_id
      ${which === 'name' ? sql`` : sql`left join search_documents c on c.item_id = hits.item_id`}
      order by ${phaseOrder(terms, which, 'hits')}
    `.execute(db);
    return rows.map(({ engine_order, ...row }) => ({
      ...row,
      engine_order: Number(engine_order),
      name_hit: which === 'name' ? 1 : 0,
      in_own_spaces: Number(row.in_own_spaces),
      size: row.size === null ? null : Number(row.size),
    }));
  }

  /**
   * One page of the content phase. SQLite: the page of each arm (the searcher's own spaces; what shares reach), each
   * up to the page's end, merged in the engine's order — the rows, in the order, one walk over everything would give.
   */
  async function contentPage(
    actor: UserActor,
    terms: string[],
    filters: SearchFilters,
    page: { offset: number; limit: number },
  ): Promise<SearchHitRow[]> {
    if (dialect !== 'sqlite') return phasePage(actor, terms, filters, 'content', page);
    const arms = await armsOf(actor, filters);
    const upToEnd = { offset: 0, limit: page.offset + page.limit };
    const pages = await Promise.all(arms.map((arm) => phasePage(actor, terms, filters, 'content', upToEnd, arm)));
    return pages
      .flat()
      .sort((a, b) => b.engine_order - a.engine_order)
      .slice(page.offset, page.offset + page.limit);
  }

  /**
   * The arms of an SQLite content search, narrowed by the space filter: the searcher's own spaces (personal,
   * workspaces) by their space tokens, and what shares reach them by the tokens of the shared folders (their
   * contents: `p`, themselves: `i`) and files (`i`). Arms without a token are left out.
   */
  async function armsOf(actor: UserActor, filters: SearchFilters): Promise<Arm[]> {
    const [memberships, targets] = await Promise.all([
      db.selectFrom('workspace_members').select('workspace_id').where('user_id', '=', actor.id).execute(),
      filters.space === 'personal' ? { rows: [] } : readableScope(actor).sharedTargets.execute(db),
    ]);
    const own: string[] = [];
    if (filters.space === undefined || filters.space === 'personal') own.push(scopeToken('o', actor.ownerKey));
    for (const { workspace_id: id } of memberships) {
      if (filters.space === undefined || filters.space === id) own.push(scopeToken('w', id));
    }
    const shared = targets.rows.flatMap((row) =>
      row.kind === 'folder' ? [scopeToken('p', row.id), scopeToken('i', row.id)] : [scopeToken('i', row.id)],
    );
    const arms: Arm[] = [];
    if (own.length > 0 && filters.space !== 'shared') arms.push({ tokens: own, shared: false });
    if (shared.length > 0) {
      arms.push({ tokens: shared.length > options.sharedTokensMax ? null : [...new Set(shared)], shared: true });
    }
    return arms;
  }

  /** How many name matches `actor` may see (for a page that starts past their end). */
  async function nameCount(actor: UserActor, terms: string[], filters: SearchFilters): Promise<number> {
    const visible = visibleMatches(actor, terms, filters, 'name');
    const { rows } = await sql<{ n: number | string }>`
      ${visible.with}
      select count(*) as n from matched m where ${visible.where}
    `.execute(db);
    return Number(rows[0]?.n ?? 0);
  }

  return {
    /**
     * One page of what `actor` may see among the documents matching `terms`: name matches first (names that start
     * with the first term, then the most recently modified), then content matches in the engine's order.
     */
    async search(
      actor: UserActor,
      terms: string[],
      filters: SearchFilters,
      page: { offset: number; limit: number },
    ): Promise<SearchHitRow[]> {
      const names = await phasePage(actor, terms, filters, 'name', page);
      if (names.length >= page.limit) return names;
      // How many name matches come before the content ones: known from this page unless it starts past their end.
      const before =
        names.length > 0 || page.offset === 0 ? page.offset + names.length : await nameCount(actor, terms, filters);
      const content = await contentPage(actor, terms, filters, {
        offset: Math.max(0, page.offset - before),
        limit: page.limit - names.length,
      });
      return [...names, ...content];
    },

    /** The folders from each of `folderIds` up to its space's root (depth 0: the folder itself). */
    async chains(folderIds: string[]): Promise<ChainRow[]> {
      if (folderIds.length === 0) return [];
      const { rows } = await sql<ChainRow>`
        with recursive ${folderAncestorsCte(folderIds)}
        select start_id, id, parent_id, name, depth from folder_up
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

import { sql } from 'kysely';
import type { UserActor } from '../../auth/actor';
import { readableScope } from '../../auth/access-facts';
import type { Db, Dialect } from '../../db';
import { bm25Scores } from './bm25';
import type { Passage } from './passages';

/** A passage the asker may read, as retrieval ranks it. */
export interface PassageRow {
  passage_id: number;
  file_id: string;
  file_name: string;
  content_type: string | null;
  text: string;
  page: number | null;
  start_seconds: number | null;
  end_seconds: number | null;
}

export interface VectorRow extends PassageRow {
  vector: Uint8Array;
}

/** How `lexical` searches: each term as a prefix (words of 4+ letters), and the terms a passage must hold one of. */
export interface LexicalOptions {
  prefix?: boolean;
  /** Searched for (default: every term); the passages found are ranked by every term. */
  required?: string[];
}

/** Where a retrieval looks: the asker's readable files, optionally one workspace or one file. */
export interface Within {
  workspaceId?: string | undefined;
  fileId?: string | undefined;
}

const toVector = (bytes: Uint8Array): Float32Array => {
  const copy = new Uint8Array(bytes);
  return new Float32Array(copy.buffer, 0, Math.floor(copy.byteLength / 4));
};
export const vectorOf = toVector;
/** The passages found by a question's rarer words that are ranked again by all of them (SQLite). */
const RESCORED = 200;
/** The first `count` SQLite varints of `bytes` (big-endian groups of 7 bits; a 9th byte gives 8). */
function varints(bytes: Uint8Array, count: number): number[] {
  const out: number[] = [];
  let at = 0;
  while (out.length < count && at < bytes.length) {
    let value = 0;
    let length = 0;
    for (; length < 8; length += 1) {
      const byte = bytes[at + length] ?? 0;
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    if (length === 8) value = value * 256 + (bytes[at + 8] ?? 0);
    at += Math.min(length + 1, 9);
    out.push(value);
  }
  return out;
}
/** The most passages ranked before the visibility condition; beyond, the condition goes into the ranking query. */
const MAX_CANDIDATES = 6_400;
const toBytes = (vector: Float32Array): Buffer => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

/**
 * The queries of "Ask your files" (migration 0040), over both engines. Who may read a passage is its file's search
 * document (`search_documents`, kept in step with moves, shares, trash and deletes by the search triggers) under
 * `readableScope`: the one visibility condition search uses, in the query itself.
 */
export function createAskRepository(db: Db, dialect: Dialect) {
  const columns = sql`p.passage_id, p.file_id, d.name as file_name, d.content_type, p.text, p.page, p.start_seconds,
    p.end_seconds`;
  function visible(actor: UserActor, within: Within) {
    const scope = readableScope(actor);
    const conditions = [scope.document('d'), sql`d.trashed_at is null`];
    if (within.workspaceId !== undefined) conditions.push(sql`d.workspace_id = ${within.workspaceId}`);
    if (within.fileId !== undefined) conditions.push(sql`p.file_id = ${within.fileId}`);
    return { ctes: scope.ctes, where: sql.join(conditions, sql` and `) };
  }
  const numeric = <T extends PassageRow>(row: T): T => ({
    ...row,
    passage_id: Number(row.passage_id),
    page: row.page === null ? null : Number(row.page),
    start_seconds: row.start_seconds === null ? null : Number(row.start_seconds),
    end_seconds: row.end_seconds === null ? null : Number(row.end_seconds),
  });

  /** Whether `term` is looked for as a prefix. */
  const pattern = (term: string, prefix: boolean) => (prefix && term.length >= 4 ? '*' : '');
  /** The last key a term's words can have: itself, or (a prefix) itself followed by the last code point. */
  const lastKey = (term: string, prefix: boolean) => (pattern(term, prefix) ? `${term}\u{10FFFF}` : term);

  /**
   * How many passages hold each term (a prefix: the sum over its words, an over-count for passages holding two of
   * them), and how many passages there are (PostgreSQL only; 0 on SQLite): FTS5's vocabulary table
   * `passages_vocab` (migration 0044), `passage_terms` on PostgreSQL (migration 0042). A term's words are an index
   * range of keys.
   */
  async function counts(terms: string[], prefix: boolean): Promise<{ total: number; df: number[] }> {
    if (terms.length === 0) return { total: 0, df: [] };
    if (dialect === 'sqlite') {
      // One statement: a row per term, in order.
      const { rows } = await sql<{ n: number | null }>`${sql.join(
        terms.map(
          (term) => sql`select (select sum(doc) from passages_vocab
            where term >= ${term} and term <= ${lastKey(term, prefix)}) as n`,
        ),
        sql` union all `,
      )}`.execute(db);
      return { total: 0, df: rows.map((row) => Number(row.n ?? 0)) };
    }
    const upTo = terms.map((term) => lastKey(term, prefix));
    const { rows } = await sql<{ n: number | string | null; df: (number | string | null)[] }>`
      select (select passages from passage_terms where term = '') as n,
        array(select (select coalesce(sum(passages), 0) from passage_terms where term between l.low and l.high)
          from unnest(${terms}::text[], ${upTo}::text[]) with ordinality as l(low, high, i) order by l.i) as df`.execute(
      db,
    );
    return { total: Number(rows[0]?.n ?? 0), df: (rows[0]?.df ?? []).map(Number) };
  }

  /**
   * How many passages and words `passages_fts` holds, as its bm25 counts them (SQLite): FTS5's averages record, row 1
   * of `passages_fts_data`, two SQLite varints (fts5_index.c; read in 1 ms where counting the passages took 13 ms).
   */
  async function ftsTotals(): Promise<{ passages: number; words: number }> {
    const { rows } = await sql<{ block: Uint8Array }>`select block from passages_fts_data where id = 1`.execute(db);
    const [passages = 0, words = 0] = varints(rows[0]?.block ?? new Uint8Array(), 2);
    return { passages, words };
  }

  /**
   * How the engine finds and orders the passages matching `terms`: FROM (binding `p`), WHERE and ORDER BY fragments,
   * and `ids`, the query of their ids alone, best first (on SQLite without `passages`: joining it before the sort
   * took 3× longer).
   * PostgreSQL's `ts_rank_cd` knows no inverse document frequency (a common word weighs as much as a rare one, unlike
   * FTS5's bm25): each term present adds BM25's idf, from the document frequencies kept in `passage_terms` (migration
   * 0042; a prefix's is the sum of its words', at most every passage), and the engine's rank orders within that.
   */
  async function matchOf(terms: string[], prefix: boolean, required: string[]) {
    if (dialect === 'sqlite') {
      // Terms hold only letters, digits and marks (`searchTerms`): quoting them cannot inject FTS5 syntax.
      const query = required.map((term) => `"${term}"${pattern(term, prefix)}`).join(' OR ');
      // FTS5's bm25 weighs only the words searched for: what it found is ranked again by all of them.
      const rank = async (rows: PassageRow[]) => {
        if (required.length === terms.length || rows.length === 0) return rows;
        const { df } = await counts(terms, prefix);
        const totals = await ftsTotals();
        const best = rows.slice(0, RESCORED);
        const scores = bm25Scores(
          best.map((row) => row.text),
          terms.map((term, i) => ({ term, prefix: pattern(term, prefix) !== '', passages: df[i] ?? 0 })),
          totals.passages,
          totals.words / Math.max(1, totals.passages),
        );
        const score = new Map(best.map((row, i) => [row.passage_id, scores[i] ?? 0]));
        return best.sort(
          (a, b) => (score.get(b.passage_id) ?? 0) - (score.get(a.passage_id) ?? 0) || a.passage_id - b.passage_id,
        );
      };
      return {
        rank,
        from: sql`from passages_fts join passages p on p.passage_id = passages_fts.rowid`,
        where: sql`passages_fts match ${query}`,
        order: sql`bm25(passages_fts), p.passage_id`,
        ids: (count: number) => sql<{ passage_id: number }>`select rowid as passage_id from passages_fts
          where passages_fts match ${query} order by bm25(passages_fts), rowid limit ${count}`,
      };
    }
    const tsQuery = (list: string[]) => list.map((term) => `'${term}'${pattern(term, prefix) ? ':*' : ''}`).join(' | ');
    const tsTerms = terms.map((term) => tsQuery([term]));
    const query = tsQuery(terms);
    const searched = tsQuery(required);
    const { total, df: frequencies } = await counts(terms, prefix);
    const weight = sql.join(
      tsTerms.map((t, i) => {
        const df = Math.min(frequencies[i] ?? 0, total);
        const idf = Math.log((total - df + 0.5) / (df + 0.5) + 1);
        return sql`case when p.text_tsv @@ to_tsquery('simple', ${t}) then ${idf}::float8 else 0 end`;
      }),
      sql` + `,
    );
    const order = sql`${weight} desc, ts_rank_cd(p.text_tsv, to_tsquery('simple', ${query}), 1) desc, p.passage_id`;
    // The weights and the engine's rank are over every term already: the order is final.
    return {
      rank: async (rows: PassageRow[]) => rows,
      from: sql`from passages p`,
      where: sql`p.text_tsv @@ to_tsquery('simple', ${searched})`,
      order,
      ids: (count: number) => sql<{ passage_id: number | string }>`select p.passage_id from passages p
        where p.text_tsv @@ to_tsquery('simple', ${searched}) order by ${order} limit ${count}`,
    };
  }

  /** The ids of the `count` best passages of a match, best first, whoever may read them. */
  async function bestMatches(match: Awaited<ReturnType<typeof matchOf>>, count: number): Promise<number[]> {
    const { rows } = await match.ids(count).execute(db);
    return rows.map((row) => Number(row.passage_id));
  }

  /** The passages of `ids` that `actor` may read within `within`, in the order of `ids`. */
  async function readableAmong(actor: UserActor, within: Within, ids: number[]): Promise<PassageRow[]> {
    if (ids.length === 0) return [];
    const scope = visible(actor, within);
    const { rows } = await sql<PassageRow>`
      with recursive ${scope.ctes}
      select ${columns}
      from passages p
      join search_documents d on d.item_id = p.file_id and d.kind = 'file'
      where p.passage_id in (${sql.join(ids)}) and ${scope.where}`.execute(db);
    const rank = new Map(ids.map((id, i) => [id, i]));
    return rows.map(numeric).sort((a, b) => (rank.get(a.passage_id) ?? 0) - (rank.get(b.passage_id) ?? 0));
  }

  return {
    /** How many passages hold each of `terms` (each a prefix when `prefix`, as `lexical` looks for them). */
    frequencies: async (terms: string[], prefix = true): Promise<number[]> => (await counts(terms, prefix)).df,

    /** Replaces a file's passages (and drops their vectors); nothing when the file is gone. */
    async replace(fileId: string, passages: Passage[]): Promise<number[]> {
      return db.transaction().execute(async (trx) => {
        await sql`delete from passages where file_id = ${fileId}`.execute(trx);
        const exists = await sql`select 1 from files where id = ${fileId}`.execute(trx);
        if (exists.rows.length === 0) return [];
        const ids: number[] = [];
        for (const [ordinal, p] of passages.entries()) {
          const words = dialect === 'postgres' ? sql`, atrium_search_words(${p.text}::text)` : sql``;
          const { rows } = await sql<{ passage_id: number }>`insert into passages
              (file_id, ordinal, text, page, start_seconds, end_seconds, region
              ${dialect === 'postgres' ? sql`, text_tsv` : sql``})
            values (${fileId}, ${ordinal}, ${p.text}, ${p.page}, ${p.startSeconds}, ${p.endSeconds}, ${p.region}
              ${words})
            returning passage_id`.execute(trx);
          if (rows[0]) ids.push(Number(rows[0].passage_id));
        }
        return ids;
      });
    },

    /** Stores passages' vectors (made by `label`). */
    async setVectors(label: string, vectors: { passageId: number; vector: Float32Array }[]): Promise<void> {
      for (const { passageId, vector } of vectors)
        await sql`update passages set vector = ${toBytes(vector)}, vector_label = ${label}
          where passage_id = ${passageId}`.execute(db);
    },

    /**
     * The passages `actor` may read matching any of `terms` (each a prefix when `prefix`), best first by the engine's
     * ranking: FTS5 `bm25` on SQLite, BM25's idf then `ts_rank_cd` on PostgreSQL.
     *
     * A question of common words matches half the passages: checking who may read each of them before ranking cost
     * most of the time at 100,000 files (docs/BENCHMARKS.md, Ask at 100,000 files). So the engine ranks its matches
     * alone first, and the visibility condition runs on its best few hundred; when too few of them are readable,
     * the engine is asked for more, and at last for every match with the condition in the query. The order is the
     * same either way. One file (`fileId`) is looked up with the condition in the query straight away.
     */
    async lexical(
      actor: UserActor,
      terms: string[],
      within: Within,
      limit: number,
      { prefix = true, required = terms }: LexicalOptions = {},
    ): Promise<PassageRow[]> {
      if (required.length === 0) return [];
      const match = await matchOf(terms, prefix, required);
      if (within.fileId === undefined) {
        for (let candidates = limit * 8; candidates <= MAX_CANDIDATES; candidates *= 4) {
          const ids = await bestMatches(match, candidates);
          const rows = await readableAmong(actor, within, ids);
          if (rows.length >= limit || ids.length < candidates) return (await match.rank(rows)).slice(0, limit);
        }
      }
      const scope = visible(actor, within);
      const { rows } = await sql<PassageRow>`
        with recursive ${scope.ctes}
        select ${columns}
        ${match.from}
        join search_documents d on d.item_id = p.file_id and d.kind = 'file'
        where ${match.where} and ${scope.where}
        order by ${match.order}
        limit ${limit}`.execute(db);
      return match.rank(rows.map(numeric));
    },

    /** Every passage `actor` may read with a vector made by `label` (scanned in process). */
    async withVectors(actor: UserActor, label: string, within: Within): Promise<VectorRow[]> {
      const scope = visible(actor, within);
      const { rows } = await sql<VectorRow>`
        with recursive ${scope.ctes}
        select ${columns}, p.vector
        from passages p
        join search_documents d on d.item_id = p.file_id and d.kind = 'file'
        where p.vector_label = ${label} and ${scope.where}`.execute(db);
      return rows.map(numeric);
    },

    /** A file's passages in reading order, when `actor` may read it. */
    async ofFile(actor: UserActor, fileId: string): Promise<PassageRow[]> {
      const scope = visible(actor, { fileId });
      const { rows } = await sql<PassageRow>`
        with recursive ${scope.ctes}
        select ${columns}
        from passages p
        join search_documents d on d.item_id = p.file_id and d.kind = 'file'
        where ${scope.where}
        order by p.ordinal`.execute(db);
      return rows.map(numeric);
    },

    /** Passages without a vector of `label`, a batch at a time. */
    async missingVectors(label: string, limit: number): Promise<{ passage_id: number; text: string }[]> {
      const { rows } = await sql<{ passage_id: number; text: string }>`
        select passage_id, text from passages where vector_label is null or vector_label <> ${label}
        order by passage_id limit ${limit}`.execute(db);
      return rows.map((row) => ({ ...row, passage_id: Number(row.passage_id) }));
    },

    /** Files (after `after`, in id order) analysed to the end but without passages: the backfill's work. */
    async analysedWithoutPassages(after: string, limit: number): Promise<string[]> {
      const { rows } = await sql<{ id: string }>`
        select f.id from files f join file_insights i on i.file_id = f.id
        where f.id > ${after} and i.status = 'done' and i.content_sha = f.sha256
          and not exists (select 1 from passages p where p.file_id = f.id)
        order by f.id limit ${limit}`.execute(db);
      return rows.map((row) => row.id);
    },
  };
}

export type AskRepository = ReturnType<typeof createAskRepository>;

import { sql, type RawBuilder } from 'kysely';
import type { UserActor } from '../../auth/actor';
import type { Db, Dialect } from '../../db';
import { bm25Scores, tokensOf } from './bm25';
import { isFormOf } from './forms';
import { candidatesFor, MAX_CANDIDATES, subsets, varints, type ReadableShare } from './lexical-plan';
import { numericRow, passageColumns, visibleTo, type PassageRow, type Within } from './passage-scope.repository';

/**
 * How `lexical` searches: each term as a prefix (words of 4+ letters, in its forms), and how many of the groups a
 * passage must hold (default: every group).
 */
export interface LexicalOptions {
  prefix?: boolean;
  least?: number;
  /** What `vocabulary` found for these terms (as prefixes), when the caller has it already. */
  known?: Vocabulary;
  /** How many matches were found readable in the same scope so far (see `candidatesFor`); updated. */
  share?: ReadableShare;
}

/**
 * A workspace's token in `passages_fts.space` (SQLite): `w` and its id lower-cased without hyphens, as migration
 * 0048's triggers write it; quoted as an FTS5 string.
 */
const spaceToken = (workspaceId: string) => `w${workspaceId.replace(/-/g, '').toLowerCase()}`.replace(/"/g, '""');

/** The passages found by a question's rarer words that are ranked again by all of them (SQLite). */
const RESCORED = 200;
/** The matches of one tier ranked on PostgreSQL, at least (see `matchOf`). */
const SAMPLE = 400;
/** The most forms of a term searched one by one, and the most words starting with it looked at (beyond, the prefix). */
const MAX_FORMS = 64;
const MAX_WORDS = 400;
/**
 * The most ways of holding k of n groups searched as one query (beyond, the rarest groups are searched). FTS5 reads a
 * word's passages again for every clause it is in, so SQLite searches the tier holding every group alone (a tier of
 * 5 clauses took as long as the rarest groups' search it would spare); a GIN index intersects each clause quickly.
 */
const MAX_CLAUSES = { sqlite: 1, postgres: 10 } as const;

/** What the engine knows of a question's terms (see `vocabulary`): how many passages there are, and per term… */
export interface Vocabulary {
  total: number;
  words: Map<string, TermFacts>;
}
interface TermFacts {
  /** The term as the engine spells it. */
  key: string;
  /** Its forms held by some passage; null when too many (then the prefix is searched). */
  forms: string[] | null;
  /** How many passages hold it. */
  df: number;
}
const NO_FACTS: TermFacts = { key: '', forms: [], df: 0 };

/**
 * The lexical search of "Ask your files" (docs/PRODUCT.md#ask-your-files) over both engines' full-text indexes of
 * passages (migration 0040): FTS5 on SQLite, a GIN-indexed `tsvector` on PostgreSQL. Only passages the asker may read
 * are returned (`visibleTo`).
 */
export function createLexicalSearch(db: Db, dialect: Dialect) {
  /**
   * Joins each passage `p` to its file's search document `d` where `where` holds. On PostgreSQL each document is
   * looked up by its key: joined, the planner read all of them (100,000 at 100,000 files: 47 ms for 358 passages).
   */
  const documentWhere = (where: RawBuilder<unknown>) =>
    dialect === 'postgres'
      ? sql`cross join lateral (select d.* from search_documents d
          where d.item_id = p.file_id and d.kind = 'file' and ${where} offset 0) d`
      : sql`join search_documents d on d.item_id = p.file_id and d.kind = 'file' and ${where}`;

  /** Whether `term` is looked for as a prefix. */
  const pattern = (term: string, prefix: boolean) => (prefix && term.length >= 4 ? '*' : '');
  /** The last key a term's words can have: itself, or (a prefix) itself followed by the last code point. */
  const lastKey = (term: string, prefix: boolean) => (pattern(term, prefix) ? `${term}\u{10FFFF}` : term);

  /**
   * What the engine knows of `terms`: each term's forms held by some passage (`forms.ts`; `null` when a prefix has
   * more than `MAX_FORMS` words: then the prefix itself is searched), how many passages hold each term (the sum over
   * its forms, an over-count for passages holding two of them) and how many passages there are (PostgreSQL only; 0 on
   * SQLite) — FTS5's vocabulary table `passages_vocab` (migration 0044), `passage_terms` on PostgreSQL (migration
   * 0042), where a term's words are an index range of keys. Searching the forms rather than the prefix also spares a
   * GIN index from gathering every passage of every word the prefix starts (`'part':*` took 57 ms where its 19 words
   * took 4 ms, docs/BENCHMARKS.md, Ask at 100,000 files).
   */
  async function vocabulary(terms: string[], prefix: boolean): Promise<Vocabulary> {
    // The engine's own spelling of a term: FTS5's tokenizer drops diacritics.
    const keys = terms.map((term) => (dialect === 'sqlite' ? tokensOf(term).join('') || term : term));
    const words = async (): Promise<{ i: number; term: string; n: number | string }[]> => {
      if (dialect === 'sqlite') {
        const { rows } = await sql<{ i: number; term: string; n: number }>`${sql.join(
          keys.map(
            (key, i) => sql`select * from (select ${i} as i, term, doc as n from passages_vocab
              where term >= ${key} and term <= ${lastKey(key, prefix)} limit ${MAX_WORDS + 1})`,
          ),
          sql` union all `,
        )}`.execute(db);
        return rows;
      }
      const { rows } = await sql<{ i: number; term: string; n: string }>`select l.i - 1 as i, w.term, w.passages as n
        from unnest(${keys}::text[], ${keys.map((key) => lastKey(key, prefix))}::text[]) with ordinality as l(low, high, i)
        cross join lateral (select term, passages from passage_terms where term between l.low and l.high
          and passages > 0 order by term limit ${MAX_WORDS + 1}) w
        union all select -1, '', passages from passage_terms where term = ''`.execute(db);
      return rows;
    };
    const found = await words();
    const total =
      dialect === 'sqlite' ? (await ftsTotals()).passages : Number(found.find((row) => Number(row.i) === -1)?.n ?? 0);
    const facts = new Map<string, TermFacts>();
    for (const [i, key] of keys.entries()) {
      const held = found.filter((row) => Number(row.i) === i);
      const own = pattern(key, prefix)
        ? held.filter((row) => isFormOf(row.term, key))
        : held.filter((row) => row.term === key);
      const many = held.length > MAX_WORDS || own.length > MAX_FORMS;
      facts.set(terms[i] ?? key, {
        key,
        forms: many ? null : own.map((row) => row.term),
        df: (many ? held : own).reduce((sum, row) => sum + Number(row.n), 0),
      });
    }
    return { total, words: facts };
  }

  /**
   * How FTS5 `bm25` would rank `rows` by every term of `terms` (SQLite): the engine's own ranking weighs only the
   * words searched for, so what a search of the rarer words found is ranked again by all of them.
   */
  async function rescored(rows: PassageRow[], terms: string[], prefix: boolean, known: Vocabulary) {
    const totals = await ftsTotals();
    const best = rows.slice(0, RESCORED);
    const scores = bm25Scores(
      best.map((row) => row.text),
      terms.map((term) => {
        const facts = known.words.get(term) ?? NO_FACTS;
        return { term: facts.key, prefix: pattern(term, prefix) !== '', forms: facts.forms, passages: facts.df };
      }),
      totals.passages,
      totals.words / Math.max(1, totals.passages),
    );
    const score = new Map(best.map((row, i) => [row.passage_id, scores[i] ?? 0]));
    return best.sort(
      (a, b) => (score.get(b.passage_id) ?? 0) - (score.get(a.passage_id) ?? 0) || a.passage_id - b.passage_id,
    );
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
   * How the engine finds and orders the passages holding one of `clauses` (each a list of groups, every group held;
   * a group is held when one of its terms is): `ids`, the query of their ids alone, best first, whoever may read them
   * (on SQLite without `passages`: joining it before the sort took 3× longer), and `readable`, the best that `scope`
   * lets the asker read. SQLite orders by FTS5's `bm25` over the words of the query. PostgreSQL's `ts_rank_cd` knows no
   * inverse document frequency (a common word weighs as much as a rare one): each of `terms` present adds BM25's idf,
   * and the engine's rank over all of them orders within that.
   */
  function matchOf(terms: string[], clauses: string[][][], prefix: boolean, known: Vocabulary, workspaceId?: string) {
    if (dialect === 'sqlite') {
      // Terms hold only letters, digits and marks (`searchTerms`): quoting them cannot inject FTS5 syntax.
      const termQuery = (term: string) => {
        const { forms, key } = known.words.get(term) ?? NO_FACTS;
        if (forms && forms.length > 0) return forms.map((form) => `"${form}"`).join(' OR ');
        return `"${key}"${forms ? '' : pattern(key, prefix)}`;
      };
      const group = (list: string[]) => `(${list.map(termQuery).join(' OR ')})`;
      const words = clauses.map((clause) => `(${clause.map(group).join(' AND ')})`).join(' OR ');
      // Within a workspace, its token in the column `space` (migration 0048) narrows the matches FTS5 ranks. The
      // words are kept to the column `text` then, and whenever one is a prefix (which a token might start with); not
      // otherwise: that filter made FTS5 ~10 % slower. The column `space` weighs nothing in the ranking.
      const inText = workspaceId !== undefined || words.includes('*') ? `text : (${words})` : words;
      const query = workspaceId === undefined ? inText : `space : "${spaceToken(workspaceId)}" AND ${inText}`;
      return {
        ids: (count: number) => sql<{ passage_id: number }>`select rowid as passage_id from passages_fts
          where passages_fts match ${query} order by bm25(passages_fts, 1.0, 0.0), rowid limit ${count}`,
        readable: (
          scope: { ctes: RawBuilder<unknown>; where: RawBuilder<unknown> },
          narrower: RawBuilder<unknown>,
          count: number,
        ) => sql<PassageRow>`with recursive ${scope.ctes}
          select ${passageColumns}
          from passages_fts join passages p on p.passage_id = passages_fts.rowid
          join search_documents d on d.item_id = p.file_id and d.kind = 'file'
          where passages_fts match ${query} and ${scope.where} ${narrower}
          order by bm25(passages_fts, 1.0, 0.0), p.passage_id
          limit ${count}`,
      };
    }
    // A term as a tsquery: its forms, or itself as a prefix when it has too many (or, held by no passage in any form,
    // itself, matching nothing).
    const lexeme = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
    const termQuery = (term: string) => {
      const { forms } = known.words.get(term) ?? NO_FACTS;
      if (forms && forms.length > 0)
        return forms.length === 1 ? lexeme(forms[0] ?? term) : `(${forms.map(lexeme).join(' | ')})`;
      return `${lexeme(term)}${!forms && pattern(term, prefix) ? ':*' : ''}`;
    };
    const group = (list: string[]) =>
      list.length === 1 ? termQuery(list[0] ?? '') : `(${list.map(termQuery).join(' | ')})`;
    // One test per clause: the index intersects a clause's words quickly, and the planner ORs the clauses' results;
    // one query ORing them made the index test every passage holding any word (a tier of 10 clauses: 309 ms).
    const matches = sql.join(
      clauses.map((clause) => sql`p.text_tsv @@ ${clause.map(group).join(' & ')}::tsquery`),
      sql` or `,
    );
    const weight = sql.join(
      terms.map((term) => {
        const df = Math.min(known.words.get(term)?.df ?? 0, known.total);
        const idf = Math.log((known.total - df + 0.5) / (df + 0.5) + 1);
        return sql`case when s.v @@ ${termQuery(term)}::tsquery then ${idf}::float8 else 0 end`;
      }),
      sql` + `,
    );
    // The rank's query as prefixes: spelled out, its many words made `ts_rank_cd` 4× slower.
    const every = terms.map((term) => `${lexeme(term)}${pattern(term, prefix) ? ':*' : ''}`).join(' | ');
    const order = sql`${weight} desc, ts_rank_cd(s.v, ${every}::tsquery, 1) desc, s.passage_id`;
    // The first `size` matches the index gives (all of them, when no more), each `text_tsv` read once: an expression
    // reading it reads it again from its TOAST table, ~8 µs each time; weighing 2,000 passages by 6 words took 75 ms
    // that way and 25 ms from the copies. A tier of a few common words can match half the passages; ranking every one
    // took seconds at 100,000 files, so beyond `SAMPLE` matches the first ones found stand for the tier.
    const sample = (size: number, join: RawBuilder<unknown> = sql``, where: RawBuilder<unknown> = sql``) =>
      sql`s as materialized (select p.passage_id, p.text_tsv || ''::tsvector as v from passages p ${join}
        where (${matches}) ${where} limit ${Math.max(SAMPLE, size)})`;
    return {
      ids: (count: number) => sql<{ passage_id: number | string }>`with ${sample(count)}
        select s.passage_id from s order by ${order} limit ${count}`,
      readable: (
        scope: { ctes: RawBuilder<unknown>; where: RawBuilder<unknown> },
        narrower: RawBuilder<unknown>,
        count: number,
      ) =>
        sql<PassageRow>`with recursive ${scope.ctes}, ${sample(count, documentWhere(scope.where), narrower)}
        select ${passageColumns} from s join passages p on p.passage_id = s.passage_id ${documentWhere(sql`true`)}
        order by ${order} limit ${count}`,
    };
  }
  type Match = ReturnType<typeof matchOf>;

  /**
   * Runs a search's queries; on PostgreSQL in one transaction with its full-text index preferred. With a LIMIT the
   * planner reads the table in order until enough rows match, as if testing a row were free; but each test reads the
   * row's `text_tsv` from its TOAST table (a common word's first 2,000 matches: 65–120 ms that way, a few ms through
   * the index). Within one workspace (`narrowed`) the same mistake read the workspace's passages in its index's order
   * (migration 0046), testing each, when the planner took rare words for common ones (60,000 passages for 115
   * matches: 0.4–0.57 s); without plain index scans it intersects the workspace's index with the full-text index
   * (9–50 ms for the same queries, docs/BENCHMARKS.md, Ask at 100,000 files).
   */
  async function indexed<T>(narrowed: boolean, work: (on: Db) => Promise<T>): Promise<T> {
    if (dialect === 'sqlite') return work(db);
    return db.transaction().execute(async (trx) => {
      // Without sequential scans the planner's estimates grow past `jit_above_cost`, and compiling a query (~0.5 s)
      // cost more than running it.
      await sql`select set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true),
        set_config('enable_indexscan', ${narrowed ? 'off' : 'on'}, true)`.execute(trx);
      return work(trx);
    });
  }

  /** The ids of the `count` best passages of a match, best first, whoever may read them. */
  async function bestMatches(on: Db, match: Match, count: number): Promise<number[]> {
    const { rows } = await match.ids(count).execute(on);
    return rows.map((row) => Number(row.passage_id));
  }

  /** The passages of `ids` that `actor` may read within `within`, in the order of `ids`. */
  async function readableAmong(on: Db, actor: UserActor, within: Within, ids: number[]): Promise<PassageRow[]> {
    if (ids.length === 0) return [];
    const scope = visibleTo(actor, within);
    const { rows } = await sql<PassageRow>`
      with recursive ${scope.ctes}
      select ${passageColumns}
      from passages p ${documentWhere(scope.where)}
      where p.passage_id in (${sql.join(ids)})`.execute(on);
    const rank = new Map(ids.map((id, i) => [id, i]));
    return rows.map(numericRow).sort((a, b) => (rank.get(a.passage_id) ?? 0) - (rank.get(b.passage_id) ?? 0));
  }

  /**
   * Up to `wanted` passages of a match that `actor` may read within `within`, best first, leaving out `taken` (ids of
   * passages already had). A question of common words matches half the passages: on SQLite, checking who may read
   * each of them before FTS5 ranked them cost most of the time at 100,000 files (docs/BENCHMARKS.md, Ask at 100,000
   * files). So FTS5 ranks its matches alone first, and the visibility condition runs on its best few; when too few of
   * them are readable, FTS5 is asked for more (as many as the share found readable so far suggests, `candidatesFor`),
   * and at last for every match with the condition in the query. The order is the same either way. Within one
   * workspace FTS5 matches that workspace's passages only (its token, `matchOf`). PostgreSQL ranks a sample of the
   * matches (`matchOf`): the condition picks the sample, by each match's key, so the sample is of readable passages
   * (ranking first and checking after took seconds for one workspace, a fifth of the files). One file (`fileId`) is
   * looked up with the condition in the query straight away.
   */
  async function readableMatches(
    on: Db,
    actor: UserActor,
    within: Within,
    match: Match,
    wanted: number,
    taken: Set<number>,
    share: ReadableShare,
  ): Promise<PassageRow[]> {
    if (within.fileId === undefined && dialect === 'sqlite') {
      for (
        let candidates = candidatesFor(wanted + taken.size, share);
        ;
        candidates = Math.min(MAX_CANDIDATES, candidates * 4)
      ) {
        const ids = await bestMatches(on, match, candidates);
        const fresh = ids.filter((id) => !taken.has(id));
        const rows = await readableAmong(on, actor, within, fresh);
        share.checked += fresh.length;
        share.readable += rows.length;
        if (rows.length >= wanted || ids.length < candidates) return rows.slice(0, wanted);
        if (candidates === MAX_CANDIDATES) break;
      }
    }
    const untaken = taken.size > 0 ? sql`and p.passage_id not in (${sql.join([...taken])})` : sql``;
    // PostgreSQL keeps each passage's workspace (migration 0046): its index narrows the matches; visibility decides.
    const inWorkspace =
      dialect === 'postgres' && within.workspaceId !== undefined
        ? sql`and p.workspace_id = ${within.workspaceId}`
        : sql``;
    const narrower = sql`${untaken} ${inWorkspace}`;
    const { rows } = await match.readable(visibleTo(actor, within), narrower, wanted).execute(on);
    return rows.map(numericRow);
  }

  return {
    /** What the engine knows of `terms`, each a prefix (see `vocabulary`); for `lexical` to reuse. */
    vocabulary: (terms: string[]): Promise<Vocabulary> => vocabulary(terms, true),

    /** The passages of `ids` that `actor` may read within `within`, in the order of `ids`. */
    readable: (actor: UserActor, within: Within, ids: number[]): Promise<PassageRow[]> =>
      readableAmong(db, actor, within, ids),

    /**
     * The passages `actor` may read holding at least `least` of `groups` (a group is held when one of its terms is,
     * each a prefix when `prefix`), at most `limit`: first those holding every group, then every group but one, and so
     * on, each tier best first by the engine's ranking (FTS5 `bm25` on SQLite, BM25's idf then `ts_rank_cd` on
     * PostgreSQL). A question of common words matches half the passages of a large instance, but a tier holding all
     * of them is small and the engine intersects its words quickly; the lower tiers are only searched when the higher
     * ones hold too few readable passages (docs/BENCHMARKS.md, Ask at 100,000 files).
     */
    async lexical(
      actor: UserActor,
      groups: string[][],
      within: Within,
      limit: number,
      { prefix = true, least = groups.length, known: given, share = { checked: 0, readable: 0 } }: LexicalOptions = {},
    ): Promise<PassageRow[]> {
      const terms = [...new Set(groups.flat())];
      if (terms.length === 0) return [];
      const known =
        given && prefix && terms.every((term) => given.words.has(term)) ? given : await vocabulary(terms, prefix);
      const floor = Math.max(1, Math.min(least, groups.length));
      return indexed(within.workspaceId !== undefined, async (on) => {
        const found: PassageRow[] = [];
        const taken = new Set<number>();
        const search = async (clauses: string[][][]) => {
          const match = matchOf(terms, clauses, prefix, known, within.workspaceId);
          const rows = await readableMatches(on, actor, within, match, limit - found.length, taken, share);
          for (const row of rows) taken.add(row.passage_id);
          return rows;
        };
        let held = groups.length;
        for (; held >= floor && found.length < limit; held -= 1) {
          const clauses = subsets(groups, held, MAX_CLAUSES[dialect]);
          if (!clauses) break;
          found.push(...(await search(clauses)));
        }
        if (held < floor || found.length >= limit) return found;
        // Too many ways to hold `held` groups: a passage holding `floor` of the n groups holds one of the n − floor + 1
        // held by the fewest passages. Only those are searched for — the commonest would bring passages that cannot
        // hold enough ("output the last part" matches half of 300,000 passages) — and all of them rank.
        const passagesOf = (group: string[]) => group.reduce((sum, term) => sum + (known.words.get(term)?.df ?? 0), 0);
        const rarest = [...groups].sort((a, b) => passagesOf(a) - passagesOf(b)).slice(0, groups.length - floor + 1);
        const required = [...new Set(rarest.flat())];
        const rows = await search(required.map((term) => [[term]]));
        const ranked =
          dialect === 'sqlite' && required.length < terms.length ? await rescored(rows, terms, prefix, known) : rows;
        return [...found, ...ranked];
      });
    },
  };
}

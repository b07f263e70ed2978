import { searchTerms } from '@atrium/contracts';
import type { UserActor } from '../../auth/actor';
import { type AskRepository, type PassageRow, type Vocabulary, type Within } from './ask.repository';
import { synonymsOf } from './expansion';
import { isFormOf, stem } from './forms';
import { MAX_CANDIDATES } from './lexical-plan';
import { bestFirst, cosine } from './nearest';
import { isModelTrouble, type PassageEmbedder } from './ports';
import { toVector } from './vector-bytes';
import type { VectorIndex } from './vector-index';

/**
 * Retrieval for "Ask your files" (docs/PRODUCT.md#ask-your-files): ranked lists fused by reciprocal rank —
 * the engine's full-text ranking over passages for the question's words, the same with WordNet synonyms added, and
 * (with an embedder) the nearest passages by cosine, ranked in process — with exact identifiers (a code, an
 * invoice number) first whatever the rest says. Only passages of files the asker may read reach any list.
 */

/** Question words that carry no meaning for retrieval. */
const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its me my ' +
    'no not of on or our say said says should so tell than that the their them then there these they this those to ' +
    'us was we were what when where which who whom why will with would you your about any all also find show give ' +
    'please file files document documents'
  ).split(' '),
);

/** Candidates per ranked list, the reciprocal-rank constant, and the passages an answer draws on. */
const CANDIDATES = 50;
const RRF_K = 60;
export const TOP_PASSAGES = 5;
/** Share of the question's words (or a synonym of each) a lexical hit must contain to count as relevant. */
const COVERAGE = 0.5;
/** Least cosine similarity of a passage found by vectors alone. */
const RELEVANT_COSINE = 0.5;

export interface RetrievalOptions {
  expansion: boolean;
  dense: boolean;
}

export interface Ranked {
  row: PassageRow;
  /** The words (question words and their synonyms) to highlight in it. */
  words: string[];
  score: number;
}

/** The meaningful words of a question (all of them when every one is a stop word). */
export function questionWords(question: string): string[] {
  const all = searchTerms(question);
  const kept = all.filter((word) => !STOPWORDS.has(word));
  return kept.length > 0 ? kept : all;
}

/** Identifiers in a question: tokens with a digit and a letter, or of 4+ digits, e.g. INV-2025-0042, AB12. */
export function identifiersOf(question: string): string[] {
  const tokens = question.match(/[\p{L}\p{N}]+(?:[-_/.:#][\p{L}\p{N}]+)*/gu) ?? [];
  return [
    ...new Set(
      tokens
        .filter((t) => (/\p{N}/u.test(t) && /\p{L}/u.test(t)) || /^\p{N}{4,}$/u.test(t))
        .map((t) => t.toLowerCase()),
    ),
  ];
}

/** Every word of a text, lower-cased, in order (`searchTerms` without its limit and de-duplication). */
export const wordsOf = (text: string): string[] =>
  text
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter(Boolean);
const normalised = (text: string) => wordsOf(text).join(' ');

/** Whether a text's word stands for the question's `word`: the same, or a form of its stem (`forms.ts`). */
const formOf = (word: string): ((present: string) => boolean) => {
  const root = stem(word);
  return (present) => present === word || (root.length >= 4 && isFormOf(present, root));
};
/** Whether a text's word `present` stands for the question's `word`. */
export const sameWord = (present: string, word: string): boolean => formOf(word)(present);
/** Whether a text (its words as a set and in order) holds `word` in some form. */
const holds = (words: Set<string>, list: string[], word: string) => words.has(word) || list.some(formOf(word));

export function createRetrieval(
  repo: AskRepository,
  embedder: () => PassageEmbedder | null,
  index: Pick<VectorIndex, 'candidates'>,
) {
  /**
   * The `CANDIDATES` passages nearest to the question by cosine that `actor` may read within `within`, nearest first.
   * The vectors of the cells nearest to the question (`vector-index.ts`: from the copy in memory, else ids and vectors
   * from the database; every vector without an index) are ranked first, then who may read them is checked on the
   * nearest 100, 400, 1,600… as the lexical search does. When they hold too few, 4× as many cells are read, up to
   * every vector; when the nearest `MAX_CANDIDATES` hold too few, every readable passage is read with its vector and
   * ranked (docs/BENCHMARKS.md, Ask at 100,000 files).
   */
  async function dense(actor: UserActor, question: string, within: Within, signal?: AbortSignal) {
    const model = embedder();
    if (!model) return [];
    let query: Float32Array | undefined;
    try {
      [query] = await model.embed([question], signal);
    } catch (error) {
      // The embeddings server is down: the words still find the passages.
      if (signal?.aborted || !isModelTrouble(error)) throw error;
      return [];
    }
    if (!query) return [];
    const q = query;
    for (let widening = 1; ; widening *= 4) {
      const found = await index.candidates(model.label, q, within, widening);
      const { cosines } = found;
      // The nearest `MAX_CANDIDATES`, found in one pass over the scores; who may read them is checked slice by slice.
      const ranked = bestFirst(cosines, MAX_CANDIDATES);
      const nearest: { row: PassageRow; cosine: number }[] = [];
      let checked = 0;
      for (let size = 2 * CANDIDATES; nearest.length < CANDIDATES && checked < ranked.length; size *= 4) {
        const best = ranked.slice(checked, size);
        checked += best.length;
        const cosineOf = new Map(best.map((i) => [found.ids[i] ?? -1, cosines[i] ?? 0]));
        const rows = await repo.readable(actor, within, [...cosineOf.keys()]);
        nearest.push(...rows.map((row) => ({ row, cosine: cosineOf.get(row.passage_id) ?? 0 })));
      }
      if (nearest.length >= CANDIDATES || (checked === found.ids.length && found.complete))
        return nearest.slice(0, CANDIDATES);
      if (checked >= MAX_CANDIDATES) {
        const readable = await repo.withVectors(actor, model.label, within);
        return readable
          .map(({ vector, ...row }) => ({ row, cosine: cosine(toVector(vector), q) }))
          .sort((a, b) => b.cosine - a.cosine || a.row.passage_id - b.row.passage_id)
          .slice(0, CANDIDATES);
      }
    }
  }

  /**
   * Leaves out the synonyms that bring more noise than passages: stop words, and words held by many more passages
   * than the question's own word (or than 1% of them), a general sense of it ("be" for exist, "live" for survive).
   * Each is also one more word the engine must look for in every tier (docs/BENCHMARKS.md, Ask at 100,000 files).
   */
  function keepTelling(synonyms: Map<string, string[]>, known: Vocabulary): void {
    const held = (word: string) => known.words.get(stem(word))?.df ?? 0;
    for (const [word, list] of synonyms) {
      const most = Math.max(2 * held(word), known.total / 100);
      synonyms.set(
        word,
        list.filter((synonym) => !STOPWORDS.has(synonym) && held(synonym) <= most),
      );
    }
  }

  return {
    /** The passages that answer `question` best, most relevant first; [] when none is relevant. */
    async retrieve(
      actor: UserActor,
      question: string,
      within: Within,
      options: RetrievalOptions = { expansion: true, dense: true },
      signal?: AbortSignal,
    ): Promise<Ranked[]> {
      // The nearest by meaning are looked for meanwhile: the question's embedding is requested first, and on
      // PostgreSQL the vectors are compared while the database searches the words.
      const nearby = options.dense ? dense(actor, question, within, signal) : Promise.resolve([]);
      nearby.catch(() => undefined); // awaited below; a failure before that is not an unhandled rejection
      const words = questionWords(question);
      const synonyms = new Map<string, string[]>();
      if (options.expansion) {
        for (const word of words) {
          if (!/^\p{L}+$/u.test(word) || word.length < 3) continue;
          synonyms.set(
            word,
            (await synonymsOf(word)).flatMap((s) => wordsOf(s)),
          );
        }
      }
      // What the engine knows of every word and synonym, looked up once for both searches.
      const known = await repo.vocabulary([...new Set([...words, ...[...synonyms.values()].flat()].map(stem))]);
      keepTelling(synonyms, known);
      const expanded = [...new Set([...words, ...[...synonyms.values()].flat()])];
      const needed = Math.max(1, Math.ceil(words.length * COVERAGE));
      // The engine looks for each word's stem in its forms (terminated → terminate, termination…), `forms.ts`.
      const groups = (withSynonyms: boolean) =>
        words.map((word) => [...new Set([word, ...(withSynonyms ? (synonyms.get(word) ?? []) : [])].map(stem))]);
      // A passage is relevant when it holds `needed` of the words: the engine looks for no others. How many matches
      // were readable in this scope sizes each search's next ranking (`candidatesFor`).
      const share = { checked: 0, readable: 0 };
      const search = (list: string[][]) =>
        repo.lexical(actor, list, within, CANDIDATES, { least: needed, known, share });
      const lists: PassageRow[][] = [await search(groups(false))];
      if (expanded.length > words.length) lists.push(await search(groups(true)));
      const nearest = await nearby;
      if (nearest.length > 0) lists.push(nearest.map((hit) => hit.row));
      const cosine = new Map(nearest.map((hit) => [hit.row.passage_id, hit.cosine]));

      // Exact identifiers: passages holding every word of one, in that order, whatever the other lists say.
      const identifiers = identifiersOf(question).map(normalised).filter(Boolean);
      const exact = new Set<number>();
      for (const identifier of identifiers) {
        const hits = await repo.lexical(
          actor,
          identifier.split(' ').map((word) => [word]),
          within,
          CANDIDATES,
          { prefix: false, share },
        );
        for (const row of hits) {
          if (` ${normalised(row.text)} `.includes(` ${identifier} `)) exact.add(row.passage_id);
        }
        if (hits.length > 0) lists.unshift(hits.filter((row) => exact.has(row.passage_id)));
      }

      const fused = new Map<number, Ranked>();
      for (const list of lists) {
        list.forEach((row, rank) => {
          const entry = fused.get(row.passage_id) ?? { row, words: [], score: 0 };
          entry.score += 1 / (RRF_K + rank + 1);
          fused.set(row.passage_id, entry);
        });
      }
      const relevant: Ranked[] = [];
      for (const entry of fused.values()) {
        const list = wordsOf(entry.row.text);
        const present = new Set(list);
        const found = words.flatMap((word) => {
          const forms = [word, ...(synonyms.get(word) ?? [])].filter((form) => holds(present, list, form));
          return forms.length > 0 ? [forms] : [];
        });
        entry.words = found.flat();
        const isExact = exact.has(entry.row.passage_id);
        if (isExact) entry.score += 1;
        if (isExact || found.length >= needed || (cosine.get(entry.row.passage_id) ?? 0) >= RELEVANT_COSINE)
          relevant.push(entry);
      }
      return relevant.sort((a, b) => b.score - a.score || a.row.passage_id - b.row.passage_id);
    },
  };
}

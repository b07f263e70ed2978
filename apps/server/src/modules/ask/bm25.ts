/**
 * Okapi BM25 as SQLite's FTS5 `bm25()` computes it (k1 1.2, b 0.75, idf floored at 1e-6), over passages already in
 * hand: retrieval searches the engine for a question's rarer words only and ranks what it found by all of them
 * (docs/PRODUCT.md#ask-your-files). A term is a word, or a prefix (`prefix`) standing for every word it starts.
 */
const K1 = 1.2;
const B = 0.75;

/** A text's words as FTS5's `unicode61 remove_diacritics 2` tokenizer reads them. Exported for tests. */
export function tokensOf(text: string): string[] {
  // Plain ASCII (the common case) has no diacritics to take off, and a narrower split is 3× faster.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text))
    return text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean);
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export interface Bm25Term {
  term: string;
  prefix: boolean;
  /** The words it stands for, when known (then `prefix` is not looked at). */
  forms?: string[] | null;
  /** Passages holding it (a prefix: at most every passage). */
  passages: number;
}

/**
 * Each text's BM25 score for `terms` (higher is better; 0 when it holds none), `total` passages in all of
 * `meanLength` words on average (FTS5's own totals; by default the texts' mean).
 */
export function bm25Scores(texts: string[], terms: Bm25Term[], total: number, meanLength?: number): number[] {
  const tokens = texts.map(tokensOf);
  const mean = meanLength ?? (tokens.reduce((sum, list) => sum + list.length, 0) / Math.max(1, tokens.length) || 1);
  const idf = terms.map(({ passages }) => {
    const n = Math.min(passages, total);
    return Math.max(Math.log((total - n + 0.5) / (n + 0.5)), 1e-6);
  });
  return tokens.map((list) => {
    const counts = new Map<string, number>();
    for (const token of list) counts.set(token, (counts.get(token) ?? 0) + 1);
    let score = 0;
    terms.forEach(({ term, prefix, forms }, i) => {
      let frequency = forms ? 0 : (counts.get(term) ?? 0);
      if (forms) for (const form of forms) frequency += counts.get(form) ?? 0;
      else if (prefix) for (const [token, n] of counts) if (token !== term && token.startsWith(term)) frequency += n;
      if (frequency === 0) return;
      score += ((idf[i] ?? 0) * (frequency * (K1 + 1))) / (frequency + K1 * (1 - B + (B * list.length) / mean));
    });
    return score;
  });
}

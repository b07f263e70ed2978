import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { bm25Scores, tokensOf } from './bm25';

const TEXTS = [
  'The supplier may terminate the contract with ninety days notice.',
  'Termination of the contract: the supplier terminates, the buyer pays.',
  'Invoices are paid within thirty days; the supplier sends invoices monthly.',
  'A café menu: crème brûlée, coffee and tea.',
  'Nothing here mentions any of the words.',
  'Contract contract contract, and once more the contract.',
];

describe('bm25Scores', () => {
  it('scores the passages as FTS5’s bm25() does, for words and prefixes', () => {
    const db = new Database(':memory:');
    db.exec(`create virtual table t using fts5(text, tokenize = 'unicode61 remove_diacritics 2')`);
    const insert = db.prepare('insert into t (rowid, text) values (?, ?)');
    TEXTS.forEach((text, i) => insert.run(i + 1, text));
    const query = '"contract" OR "terminat"* OR "creme"';
    const engine = new Map(
      (
        db.prepare('select rowid, bm25(t) as score from t where t match ?').all(query) as {
          rowid: number;
          score: number;
        }[]
      ).map((row) => [row.rowid - 1, -row.score]),
    );
    const documents = (term: string, prefix: boolean) =>
      TEXTS.filter((text) => tokensOf(text).some((token) => (prefix ? token.startsWith(term) : token === term))).length;
    const terms = [
      { term: 'contract', prefix: false, passages: documents('contract', false) },
      { term: 'terminat', prefix: true, passages: documents('terminat', true) },
      { term: 'creme', prefix: false, passages: documents('creme', false) },
    ];
    const scores = bm25Scores(TEXTS, terms, TEXTS.length);
    TEXTS.forEach((_, i) => expect(scores[i]).toBeCloseTo(engine.get(i) ?? 0, 6));
    // "Nothing here…" holds none of the terms.
    expect(scores[4]).toBe(0);
    db.close();
  });

  it('reads words as the tokenizer does: lower case, without diacritics', () => {
    expect(tokensOf('Crème Brûlée, CAFÉ-au-lait')).toEqual(['creme', 'brulee', 'cafe', 'au', 'lait']);
    expect(tokensOf('Plain ASCII: INV-2025_0042 (v2.1)')).toEqual(['plain', 'ascii', 'inv', '2025', '0042', 'v2', '1']);
  });
});

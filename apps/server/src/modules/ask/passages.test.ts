import { describe, expect, it } from 'vitest';
import { generate } from './answer';
import type { PassageRow } from './ask.repository';
import { cutPassages, PASSAGE_MAX_WORDS, PASSAGE_MIN_WORDS } from './passages';
import { stem } from './forms';
import { identifiersOf, questionWords } from './retrieval';

const sentence = (i: number) => `Sentence number ${i} says something plain about the topic at hand.`; // 10 words
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('passages', () => {
  it('cuts long text on sentence and paragraph boundaries into 100–250 words', () => {
    const paragraphs = Array.from({ length: 8 }, (_, p) =>
      Array.from({ length: 6 }, (_, s) => sentence(p * 6 + s)).join(' '),
    );
    const passages = cutPassages({ text: paragraphs.join('\n\n') });
    expect(passages.length).toBeGreaterThan(1);
    for (const passage of passages.slice(0, -1)) {
      expect(words(passage.text)).toBeGreaterThanOrEqual(PASSAGE_MIN_WORDS);
      expect(words(passage.text)).toBeLessThanOrEqual(PASSAGE_MAX_WORDS);
      expect(passage.text.endsWith('hand.')).toBe(true);
    }
    expect(passages.map((p) => p.text).join(' ')).toBe(paragraphs.join(' '));
  });

  it('keeps PDF pages apart and numbers them; a one-page text has no page', () => {
    const passages = cutPassages({ text: 'First page text.\fSecond page text.\f\fFourth.' });
    expect(passages.map((p) => [p.page, p.text])).toEqual([
      [1, 'First page text.'],
      [2, 'Second page text.'],
      [4, 'Fourth.'],
    ]);
    expect(cutPassages({ text: 'Just text.' })[0]?.page).toBeNull();
  });

  it('gathers transcript segments with the first start and the last end', () => {
    const segments = Array.from({ length: 30 }, (_, i) => ({ start: i * 5, end: i * 5 + 4, text: sentence(i) }));
    const passages = cutPassages({ segments });
    expect(passages[0]).toMatchObject({ startSeconds: 0, endSeconds: 49 });
    expect(passages[1]).toMatchObject({ startSeconds: 50 });
    expect(passages.at(-1)?.endSeconds).toBe(149);
  });

  it('splits a sentence longer than the maximum', () => {
    const passages = cutPassages({ text: Array.from({ length: 600 }, () => 'word').join(' ') });
    expect(passages.map((p) => words(p.text))).toEqual([250, 250, 100]);
  });
});

describe('question words', () => {
  it('drops stop words, finds identifiers and stems', () => {
    expect(questionWords('What did the supplier contract say about termination?')).toEqual([
      'supplier',
      'contract',
      'termination',
    ]);
    expect(identifiersOf('Where is invoice INV-2025-0042 or AB12, not 12?')).toEqual(['inv-2025-0042', 'ab12']);
    expect(['terminated', 'termination', 'terminate'].map(stem)).toEqual(['terminat', 'terminat', 'terminat']);
  });
});

describe('generated answers', () => {
  const row = (id: number): PassageRow => ({
    passage_id: id,
    file_id: `f${id}`,
    file_name: `f${id}.txt`,
    content_type: 'text/plain',
    text: `Passage ${id}.`,
    page: null,
    start_seconds: null,
    end_seconds: null,
  });
  const model = (pieces: string[]) => ({
    label: 'test',
    async *stream() {
      yield* pieces;
    },
  });

  it('keeps only sentences citing a given passage, as they arrive', async () => {
    const seen: string[] = [];
    const answer = await generate(
      model(['One fact [2]. An uncited ', 'claim. A wrong cite [7]. Two [1][2]']),
      [row(1), row(2)],
      [],
      'q',
      new AbortController().signal,
      (s) => void seen.push(s),
    );
    expect(seen).toEqual(['One fact [2].', 'Two [1][2]']);
    expect(answer).toMatchObject({ mode: 'generated', answer: 'One fact [2]. Two [1][2]' });
    expect(answer?.citations.map((c) => c.n)).toEqual([1, 2]);
  });

  it('answers null when nothing is cited', async () => {
    const signal = new AbortController().signal;
    expect(await generate(model(['No citations here.']), [row(1)], [], 'q', signal, () => undefined)).toBeNull();
  });
});

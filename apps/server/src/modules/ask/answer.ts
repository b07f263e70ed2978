import { ASK_NOT_FOUND, type AskCitation, type AskResponse } from '@atrium/contracts';
import type { PassageRow } from './ask.repository';
import type { AnswerGenerator } from './ports';
import { sameWord, wordsOf, type Ranked } from './retrieval';

/**
 * Answers of "Ask your files" (docs/PRODUCT.md#ask-your-files) from ranked passages: extractive (the passages'
 * sentences that match, each cited) or generated (a model's answer from the numbered passages, of which only the
 * sentences that cite a passage [n] are kept).
 */

/** Most passages an extractive answer quotes from, and tokens a generated answer may take. */
const QUOTED = 3;
export const GENERATED_MAX_TOKENS = 512;

const notFound = (): AskResponse => ({ mode: 'extractive', answer: ASK_NOT_FOUND, citations: [] });

/** A passage's sentences with their offsets in its text. */
function sentenceSpans(text: string): { start: number; end: number; text: string }[] {
  const spans: { start: number; end: number; text: string }[] = [];
  const pattern = /[^.!?…]+(?:[.!?…]+["'”)]*|$)/gu;
  for (const match of text.matchAll(pattern)) {
    const raw = match[0];
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (!trimmed) continue;
    const start = (match.index ?? 0) + lead;
    spans.push({ start, end: start + trimmed.length, text: trimmed });
  }
  return spans;
}

/** The sentences of `text` holding any of `words` (as word prefixes), best first. */
function matching(text: string, words: string[]) {
  return sentenceSpans(text)
    .map((span) => {
      const present = wordsOf(span.text);
      const hits = words.filter((w) => present.some((p) => sameWord(p, w))).length;
      return { ...span, hits };
    })
    .filter((span) => span.hits > 0);
}

export function citationOf(n: number, row: PassageRow, highlights: AskCitation['highlights']): AskCitation {
  return {
    n,
    fileId: row.file_id,
    fileName: row.file_name,
    ...(row.page !== null ? { page: row.page } : {}),
    ...(row.start_seconds !== null ? { startSeconds: row.start_seconds } : {}),
    text: row.text,
    highlights,
  };
}

/** The extractive answer: the best matching sentence of each of the top passages, each followed by its [n]. */
export function extractive(ranked: Ranked[]): AskResponse {
  if (ranked.length === 0) return notFound();
  const citations: AskCitation[] = [];
  const sentences: string[] = [];
  ranked.forEach(({ row, words }, index) => {
    const spans = matching(row.text, words);
    const n = index + 1;
    citations.push(
      citationOf(
        n,
        row,
        spans.map(({ start, end }) => ({ start, end })).sort((a, b) => a.start - b.start),
      ),
    );
    // The sentences matching most of the question (two at most, in reading order).
    const most = Math.max(0, ...spans.map((span) => span.hits));
    const best = spans.filter((span) => span.hits === most).slice(0, 2);
    if (index < QUOTED) for (const span of best) sentences.push(`${span.text} [${n}]`);
  });
  return { mode: 'extractive', answer: sentences.join(' ') || citations[0]?.text || ASK_NOT_FOUND, citations };
}

/** An extractive summary of one file: the first sentence of each of its first passages. */
export function extractiveSummary(rows: PassageRow[]): AskResponse {
  if (rows.length === 0) return notFound();
  const chosen = rows.slice(0, 5);
  const citations = chosen.map((row, index) => {
    const first = sentenceSpans(row.text)[0];
    return citationOf(index + 1, row, first ? [{ start: first.start, end: first.end }] : []);
  });
  const answer = chosen.map((row, index) => `${sentenceSpans(row.text)[0]?.text ?? row.text} [${index + 1}]`).join(' ');
  return { mode: 'extractive', answer, citations };
}

export const SYSTEM_PROMPT =
  'You answer questions about the user’s files using ONLY the numbered passages given. After every sentence, cite ' +
  'the passage it comes from as [n]. Never state anything the passages do not say. If they do not answer the ' +
  `question, reply exactly: ${ASK_NOT_FOUND}`;

/** The prompt: the numbered passages, then the question (or the request to summarise). */
export function promptOf(rows: PassageRow[], question: string): string {
  const numbered = rows.map(
    (row, i) => `[${i + 1}] (${row.file_name}${row.page ? `, page ${row.page}` : ''})\n${row.text}`,
  );
  return `Passages:\n\n${numbered.join('\n\n')}\n\nQuestion: ${question}\n\nAnswer with citations:`;
}

/** The [n] a sentence cites that are passages of the prompt. */
const citedIn = (sentence: string, count: number): number[] =>
  [...sentence.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])).filter((n) => n >= 1 && n <= count);

/**
 * Streams a generated answer: the model's text cut into sentences as it arrives; a sentence citing a passage is
 * passed to `onSentence` and kept, one without is dropped (never shown as fact). Answers the kept text and the
 * citations used, or null when no sentence carried one.
 */
export async function generate(
  generator: AnswerGenerator,
  rows: PassageRow[],
  highlights: AskCitation['highlights'][],
  question: string,
  signal: AbortSignal,
  onSentence: (sentence: string) => void | Promise<void>,
): Promise<AskResponse | null> {
  const kept: string[] = [];
  const used = new Set<number>();
  let buffer = '';
  const take = async (sentence: string) => {
    const text = sentence.trim();
    const cited = citedIn(text, rows.length);
    if (!text || cited.length === 0) return;
    for (const n of cited) used.add(n);
    kept.push(text);
    await onSentence(text);
  };
  const stream = generator.stream({
    system: SYSTEM_PROMPT,
    prompt: promptOf(rows, question),
    signal,
    maxTokens: GENERATED_MAX_TOKENS,
  });
  for await (const piece of stream) {
    if (signal.aborted) break;
    buffer += piece;
    // A sentence ends at . ! ? after its citations (`… [1].` or `… [1]` before the next sentence).
    for (;;) {
      const end = /[.!?…](?:\s*\[\d+\])*(?=\s)/u.exec(buffer);
      if (!end) break;
      const cut = end.index + end[0].length;
      await take(buffer.slice(0, cut));
      buffer = buffer.slice(cut);
    }
  }
  if (!signal.aborted) await take(buffer);
  if (kept.length === 0) return null;
  const citations = rows.flatMap((row, i) => (used.has(i + 1) ? [citationOf(i + 1, row, highlights[i] ?? [])] : []));
  return { mode: 'generated', answer: kept.join(' '), citations };
}

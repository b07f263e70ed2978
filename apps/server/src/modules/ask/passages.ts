/**
 * Cutting what analysis read into passages (docs/PRODUCT.md#ask-your-files): about `PASSAGE_MIN_WORDS` to
 * `PASSAGE_MAX_WORDS` words, on paragraph and sentence boundaries, never across a PDF page (pdftotext's form feed)
 * or beyond a transcript segment's times, each with where it came from.
 */

export const PASSAGE_MIN_WORDS = 100;
export const PASSAGE_MAX_WORDS = 250;

/** What analysis read in a file, as passages are made from it. */
export interface PassageSources {
  /** Document, PDF (pages separated by `\f`), OCR or plain text. */
  text?: string | undefined;
  /** A recording's transcript, by segment. */
  segments?: { start: number; end: number; text: string }[] | undefined;
  caption?: string | undefined;
  tags?: string[] | undefined;
}

export interface Passage {
  text: string;
  page: number | null;
  startSeconds: number | null;
  endSeconds: number | null;
  region: string | null;
}

const wordCount = (text: string) => (text.match(/\S+/g) ?? []).length;

/** The sentences of a paragraph: after `.`, `!`, `?` (or `…`) and a space. */
export const sentencesOf = (paragraph: string): string[] =>
  paragraph
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?…])\s+(?=["'“(\p{Lu}\p{N}])/u)
    .filter(Boolean);

/** Splits one over-long sentence into pieces of at most `PASSAGE_MAX_WORDS` words. */
const pieces = (sentence: string): string[] => {
  const words = sentence.split(' ');
  if (words.length <= PASSAGE_MAX_WORDS) return [sentence];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += PASSAGE_MAX_WORDS) out.push(words.slice(i, i + PASSAGE_MAX_WORDS).join(' '));
  return out;
};

/** A page's (or a text's) passages: paragraphs gathered until the minimum, sentences until the maximum. */
function cutText(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let words = 0;
  const close = () => {
    if (current.length > 0) out.push(current.join(' '));
    current = [];
    words = 0;
  };
  for (const paragraph of text.split(/\n\s*\n/)) {
    for (const sentence of sentencesOf(paragraph).flatMap(pieces)) {
      const n = wordCount(sentence);
      if (words > 0 && words + n > PASSAGE_MAX_WORDS) close();
      current.push(sentence);
      words += n;
    }
    // A paragraph's end is the preferred place to close a passage that is long enough.
    if (words >= PASSAGE_MIN_WORDS) close();
  }
  close();
  return out;
}

/** Transcript segments gathered into passages, each with the first segment's start and the last one's end. */
function cutSegments(segments: NonNullable<PassageSources['segments']>): Passage[] {
  const out: Passage[] = [];
  let current: typeof segments = [];
  let words = 0;
  const close = () => {
    const first = current[0];
    const last = current.at(-1);
    if (first && last)
      out.push({
        text: current.map((s) => s.text.trim()).join(' '),
        page: null,
        startSeconds: first.start,
        endSeconds: last.end,
        region: null,
      });
    current = [];
    words = 0;
  };
  for (const segment of segments) {
    const n = wordCount(segment.text);
    if (n === 0) continue;
    if (words > 0 && words + n > PASSAGE_MAX_WORDS) close();
    current.push(segment);
    words += n;
    if (words >= PASSAGE_MIN_WORDS && /[.!?…]\s*$/.test(segment.text)) close();
  }
  close();
  return out;
}

/** A file's passages, in reading order. */
export function cutPassages(sources: PassageSources): Passage[] {
  const out: Passage[] = [];
  const text = sources.text?.trim() ?? '';
  if (text) {
    const pages = text.split('\f');
    const paged = pages.length > 1;
    pages.forEach((page, index) => {
      for (const piece of cutText(page))
        out.push({ text: piece, page: paged ? index + 1 : null, startSeconds: null, endSeconds: null, region: null });
    });
  }
  if (sources.segments && sources.segments.length > 0) out.push(...cutSegments(sources.segments));
  const about = [sources.caption, sources.tags?.join(', ')].filter(Boolean).join('. ');
  if (about) out.push({ text: about, page: null, startSeconds: null, endSeconds: null, region: 'image' });
  return out;
}

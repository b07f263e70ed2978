/**
 * A small bigram language model (ARPA text) written from a workspace's own text, for speech-to-text
 * adaptation (docs/PRODUCT.md#speech-to-text): pocketsphinx interpolates it with its generic en-us model,
 * so words and word pairs that occur in the workspace's stored files become likelier in transcripts.
 * Absolute discounting (D = 0.5) with back-off weights computed so each history's probabilities sum to 1.
 */

/** Lower-case words as pocketsphinx's dictionary spells them (letters and apostrophes). */
export function lmWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

const DISCOUNT = 0.5;
const log10 = (p: number): string => Math.log10(p).toFixed(4);

/**
 * ARPA text of a bigram model of `text` (sentences split at . ! ? and line breaks), or null when the
 * text has no words. `maxWords` keeps the most frequent words only (bounded model size).
 */
export function buildArpa(text: string, maxWords = 5000): string | null {
  const sentences = text
    .split(/[.!?\n]+/)
    .map(lmWords)
    .filter((s) => s.length > 0);
  if (sentences.length === 0) return null;
  const uniCount = new Map<string, number>();
  for (const s of sentences) for (const w of s) uniCount.set(w, (uniCount.get(w) ?? 0) + 1);
  const kept = new Set(
    [...uniCount.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, maxWords)
      .map(([w]) => w),
  );
  const uni = new Map<string, number>([['</s>', sentences.length]]);
  const bi = new Map<string, Map<string, number>>();
  for (const s of sentences) {
    const seq = ['<s>', ...s.map((w) => (kept.has(w) ? w : '<unk>')), '</s>'];
    for (let i = 1; i < seq.length; i++) {
      const w = seq[i] as string;
      const h = seq[i - 1] as string;
      if (w !== '</s>') uni.set(w, (uni.get(w) ?? 0) + 1);
      if (w === '<unk>' || h === '<unk>') continue;
      const row = bi.get(h) ?? new Map<string, number>();
      row.set(w, (row.get(w) ?? 0) + 1);
      bi.set(h, row);
    }
  }
  uni.delete('<unk>');
  const total = [...uni.values()].reduce((a, b) => a + b, 0);
  const pUni = (w: string): number => (uni.get(w) ?? 0) / total;
  const unigrams = ['<s>', ...[...uni.keys()].sort()];
  const bigramLines: string[] = [];
  const backoff = new Map<string, number>();
  for (const [h, row] of [...bi.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const count = [...row.values()].reduce((a, b) => a + b, 0);
    let seenMass = 0;
    let seenUni = 0;
    for (const [w, c] of [...row.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const p = (c - DISCOUNT) / count;
      seenMass += p;
      seenUni += pUni(w);
      bigramLines.push(`${log10(p)} ${h} ${w}`);
    }
    const rest = 1 - seenUni;
    backoff.set(h, rest > 1e-9 ? (1 - seenMass) / rest : 1e-9);
  }
  const unigramLines = unigrams.map((w) => {
    const p = w === '<s>' ? '-99' : log10(pUni(w));
    const b = backoff.get(w);
    return b === undefined ? `${p} ${w}` : `${p} ${w} ${log10(b)}`;
  });
  return [
    '\\data\\',
    `ngram 1=${unigramLines.length}`,
    `ngram 2=${bigramLines.length}`,
    '',
    '\\1-grams:',
    ...unigramLines,
    '',
    '\\2-grams:',
    ...bigramLines,
    '',
    '\\end\\',
    '',
  ].join('\n');
}

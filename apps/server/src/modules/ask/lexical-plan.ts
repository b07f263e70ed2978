/**
 * Pure pieces of the lexical search's plan (`lexical.repository.ts`, docs/PRODUCT.md#ask-your-files): the tiers of a
 * question's groups, how many of a ranking's best matches to ask for, and FTS5's averages record.
 */

/** The most passages ranked before the visibility condition; beyond, the condition goes into the ranking query. */
export const MAX_CANDIDATES = 6_400;
/** How many matches of one search have been checked for visibility, and how many of them were readable. */
export interface ReadableShare {
  checked: number;
  readable: number;
}

/**
 * How many of a ranking's best matches to ask for so that `needed` readable ones are likely among them: twice the
 * need over the share of the matches checked so far in the question's scope that were readable (counted as if one
 * more readable match had been checked: all of them before any was). In a workspace of a fifth of the files, asking
 * for twice the need found too few and FTS5 ranked every match again (~50 ms each time at 100,000 files,
 * docs/BENCHMARKS.md, Ask at 100,000 files); a longer limit costs FTS5 little, checking each match ~15 µs.
 */
export function candidatesFor(needed: number, share: ReadableShare): number {
  const readable = (share.readable + 1) / (share.checked + 1);
  return Math.min(MAX_CANDIDATES, Math.ceil((2 * needed) / Math.max(readable, (2 * needed) / MAX_CANDIDATES)));
}

/** Every way of choosing `size` of `items`, in order; null when there are more than `most`. */
export function subsets<T>(items: T[], size: number, most: number): T[][] | null {
  let count = 1;
  for (let i = 0; i < size; i += 1) count = (count * (items.length - i)) / (i + 1);
  if (size < 1 || size > items.length || count > most) return null;
  const out: T[][] = [];
  const pick = (from: number, chosen: T[]) => {
    if (chosen.length === size) {
      out.push(chosen);
      return;
    }
    for (let i = from; i <= items.length - (size - chosen.length); i += 1) pick(i + 1, [...chosen, items[i] as T]);
  };
  pick(0, []);
  return out;
}

/** The first `count` SQLite varints of `bytes` (big-endian groups of 7 bits; a 9th byte gives 8). */
export function varints(bytes: Uint8Array, count: number): number[] {
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

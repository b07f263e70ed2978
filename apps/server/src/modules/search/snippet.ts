import type { SearchHighlight } from '@atrium/contracts';

/** Longest content snippet, in characters (before the ellipses). */
export const SNIPPET_LENGTH = 160;
/** Characters of context kept before the first match of a content snippet. */
const LEAD = 50;

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** Where words of `text` start with one of `terms` (lower-case), as character ranges covering the matched prefix. */
export function highlightsIn(text: string, terms: string[]): SearchHighlight[] {
  const found: SearchHighlight[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0].toLowerCase();
    let best = 0;
    for (const term of terms) if (term.length > best && word.startsWith(term)) best = term.length;
    if (best > 0) found.push({ start: match.index, end: match.index + best });
  }
  return found;
}

/**
 * A snippet of `text` around its first match of `terms`, with the matches' ranges. Names are short and shown
 * whole; a content text is cut to about `SNIPPET_LENGTH` characters at word breaks, with `…` where it was cut.
 */
export function snippetOf(
  text: string,
  terms: string[],
  whole = false,
): { snippet: string; highlights: SearchHighlight[] } {
  const flat = whole ? text : text.replace(/\s+/g, ' ').trim();
  if (whole || flat.length <= SNIPPET_LENGTH) return { snippet: flat, highlights: highlightsIn(flat, terms) };
  const first = highlightsIn(flat, terms)[0]?.start ?? 0;
  let start = Math.max(0, first - LEAD);
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    start = space >= 0 && space < first ? space + 1 : start;
  }
  let end = Math.min(flat.length, start + SNIPPET_LENGTH);
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > first) end = space;
  }
  const prefix = start > 0 ? '…' : '';
  const snippet = `${prefix}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
  return { snippet, highlights: highlightsIn(snippet, terms) };
}

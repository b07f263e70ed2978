// Debian's man pages as a text collection the team did not write (docs/BENCHMARKS.md, Ask your files): the pages of
// sections 1 and 8 in a seeded order, rendered as plain text, and each page's NAME description as a question.
// Used by bench/ask-eval.mjs (quality) and bench/ask-scale.mjs (latency at 100,000 files).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** A seeded pseudo-random generator in [0, 1) (mulberry32): the same set every run. @param {number} seed */
export function seededRandom(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A text's words, lower-cased. @param {string} text */
export const words = (text) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * The pages of sections 1 and 8, shuffled with `random`. The Google Cloud CLI (installed on this machine from
 * Google's own repository, not Debian's) ships ~16,600 near-identical generated pages: they are left out.
 * @param {() => number} random
 */
export function manPages(random) {
  const google = new Set(
    spawnSync('dpkg', ['-L', 'google-cloud-cli'], { encoding: 'utf8' }).stdout?.split('\n').filter(Boolean) ?? [],
  );
  const candidates = ['man1', 'man8']
    .flatMap((section) =>
      readdirSync(`/usr/share/man/${section}`)
        .filter((name) => name.endsWith('.gz'))
        .map((name) => path.join('/usr/share/man', section, name)),
    )
    .filter((file) => !google.has(file) && !path.basename(file).startsWith('gcloud'))
    .sort();
  for (let i = candidates.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [candidates[i], candidates[j]] = [/** @type {string} */ (candidates[j]), /** @type {string} */ (candidates[i])];
  }
  return candidates;
}

/** A page rendered as plain text, or null when it is only a link to another page or does not render. @param {string} file */
export function renderManPage(file) {
  const raw = zlib.gunzipSync(readFileSync(file)).toString('utf8');
  if (/^\.so\s/m.test(raw.slice(0, 200))) return null;
  const out = spawnSync('man', ['-l', file], {
    env: { ...process.env, MANWIDTH: '90', MANPAGER: 'cat', PAGER: 'cat', LANG: 'C.UTF-8', MAN_KEEP_FORMATTING: '' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // eslint-disable-next-line no-control-regex
  return out.status === 0 && out.stdout ? out.stdout.replace(/.\x08/g, '') : null;
}

/**
 * The page's names and its question: the NAME line's description without those names (so the answer is found by
 * meaning, not by file name), or null when fewer than 3 words are left. @param {string} text
 */
export function nameLine(text) {
  const match = /^NAME\n([\s\S]*?)\n\s*\n/m.exec(text);
  if (!match?.[1]) return null;
  const line = match[1].replace(/\s+/g, ' ').trim();
  const parts = /^(.+?)\s+[-‐–—]+\s+(.+)$/u.exec(line);
  if (!parts?.[1] || !parts[2]) return null;
  const names = new Set(parts[1].split(/[,\s]+/).flatMap(words));
  const question = parts[2]
    .split(/\s+/)
    .filter((word) => !words(word).some((w) => names.has(w)))
    .join(' ')
    .replace(/^[\s,:;.-]+|[\s,:;]+$/g, '');
  return words(question).length >= 3 ? { question, names } : null;
}

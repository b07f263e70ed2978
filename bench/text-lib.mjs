// Known text for the AI benchmarks and how to score what an engine made of it (bench/analysis.mjs,
// bench/ocr-engines.mjs): the text, word lists, the word error rate and an A4 page of text rendered as a scan would look.
import { createRequire } from 'node:module';
import path from 'node:path';
import { root } from './files-lib.mjs';

const require = createRequire(path.join(root, 'apps/server/package.json'));
const sharp = require('sharp');

/** @param {string} text */
export const words = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
/** Word error rate: word-level edit distance over the reference's length. @param {string[]} ref @param {string[]} hyp */
export const wer = (ref, hyp) => {
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const row = [i];
    for (let j = 1; j <= hyp.length; j++)
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (ref[i - 1] === hyp[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return (previous[hyp.length] ?? 0) / ref.length;
};

/** An A4 page (1240×1754, 150 dpi) of `lines` in a serif font, as a scan would look. @param {string[]} lines */
export const page = (lines) =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="1754">
      <rect width="100%" height="100%" fill="white"/>
      ${lines.map((line, i) => `<text x="110" y="${160 + i * 46}" font-family="DejaVu Serif" font-size="30">${line}</text>`).join('')}
    </svg>`),
  )
    .greyscale()
    .png()
    .toBuffer();
export const TEXT =
  `It is a truth universally acknowledged that a single man in possession of a good fortune must be in want of a
wife However little known the feelings or views of such a man may be on his first entering a neighbourhood this
truth is so well fixed in the minds of the surrounding families that he is considered the rightful property of some
one or other of their daughters My dear Mr Bennet said his lady to him one day have you heard that Netherfield Park
is let at last Mr Bennet replied that he had not But it is returned she for Mrs Long has just been here and she told
me all about it Mr Bennet made no answer Do you not want to know who has taken it cried his wife impatiently You
want to tell me and I have no objection to hearing it This was invitation enough`
    .replace(/\n/g, ' ')
    .split(' ');

/** `TEXT` as the lines of a page, 9 words each (it repeats to fill `count` lines). */
export const pageLines = (count = 30) => {
  const lines = [];
  for (let i = 0; lines.length < count; i += 9) {
    const at = i % TEXT.length;
    lines.push([...TEXT, ...TEXT].slice(at, at + 9).join(' '));
  }
  return lines;
};

/** Ten everyday office sentences: speech fixtures (bench/ai-local.mjs, bench/voices.mjs). */
export const SENTENCES = [
  'hello world this is a test',
  'good morning everyone welcome to the meeting',
  'please send the quarterly report to the marketing team before friday',
  "the meeting has been moved to three o'clock tomorrow afternoon",
  'can you share the presentation with the new customers',
  'i will call you back after lunch',
  'the server is down and we need to restart it',
  'let us review the budget for next year',
  'the project deadline is at the end of the month',
  'thank you for your help with the design',
];

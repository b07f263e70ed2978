/**
 * Text in an image (docs/PRODUCT.md#file-insights): Debian's tesseract, word by word with its confidence, so that a
 * page photographed sideways or upside down is turned upright first, and a photo without real words stores no text
 * (tesseract reads "a\n, 4" into a portrait otherwise).
 */
import sharp from 'sharp';
import { requireExecutable, runPipeline } from '../../adapters/ai/local/system';

/**
 * How the analysis runs tesseract: one OpenMP thread. With its default (a thread per core, spinning while they wait
 * for each other) a page took 3–5 s on a 2-core machine, with one thread 0.6–0.9 s, as accurately
 * (docs/BENCHMARKS.md, OCR engines) — and it leaves the other core to the server and the other engines.
 */
const TESSERACT_ENV = { OMP_THREAD_LIMIT: '1' };

/** A word tesseract is at least this sure of (0–100) is kept. */
const KEEP_CONFIDENCE = 45;
/** A "real" word: letters (or a long number/code) read with at least this confidence. */
const REAL_CONFIDENCE = 70;
/** Fewer real words than this and the image holds no text worth storing (a sign may hold a single word). */
const MIN_REAL_WORDS = 1;
/** Fewer real words than this and the page may be on its side: ask tesseract which way is up. */
const TRY_ORIENTATION_BELOW = 20;
/**
 * Real words below this share of the words read and the page may be upside down too: tesseract reads a full page
 * upside down as hundreds of "words", some of them letters read with confidence (38 of 272 on a 30-line page, against
 * 185 of 270 upright; docs/BENCHMARKS.md, OCR of photographed pages).
 */
const MIN_REAL_SHARE = 0.4;

interface Word {
  text: string;
  confidence: number;
  /** block, paragraph and line numbers, to lay the words out again. */
  block: number;
  paragraph: number;
  line: number;
}

export interface OcrResult {
  text: string;
  /** Words read with confidence: the measure of how well the image was read. */
  realWords: number;
  /** Degrees the image was turned before it was read (0, 90, 180 or 270). */
  rotated: number;
  /** Degrees the text's lines were straightened by before it was read (clockwise; 0 when they were not). */
  straightened: number;
}

const isReal = (word: Word) =>
  word.confidence >= REAL_CONFIDENCE && (/\p{L}{3,}/u.test(word.text) || /^[\p{L}\p{N}-]{5,}$/u.test(word.text));

/** tesseract's TSV (level 5 rows are words) → its words. Exported for tests. */
export function parseTsv(tsv: string): Word[] {
  const words: Word[] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t');
    if (cells[0] !== '5' || cells.length < 12) continue;
    const text = (cells[11] ?? '').trim();
    if (text === '') continue;
    words.push({
      text,
      confidence: Number(cells[10]),
      block: Number(cells[2]),
      paragraph: Number(cells[3]),
      line: Number(cells[4]),
    });
  }
  return words;
}

/** The kept words laid out as tesseract found them: lines, and a blank line between paragraphs. Exported for tests. */
export function layOut(words: Word[]): string {
  let text = '';
  let previous: Word | undefined;
  for (const word of words.filter((w) => w.confidence >= KEEP_CONFIDENCE)) {
    if (previous) {
      const sameParagraph = previous.block === word.block && previous.paragraph === word.paragraph;
      text += !sameParagraph ? '\n\n' : previous.line !== word.line ? '\n' : ' ';
    }
    text += word.text;
    previous = word;
  }
  return text;
}

async function tesseract(png: Buffer, args: string[], timeoutMs: number): Promise<string> {
  const program = requireExecutable('tesseract', 'tesseract-ocr tesseract-ocr-eng', 'Text recognition (OCR)');
  const out = await runPipeline([{ command: program, args: ['-', '-', ...args], env: TESSERACT_ENV }], {
    input: png,
    timeoutMs,
    maxOutputBytes: 16 * 1024 * 1024,
    label: 'Text recognition',
  });
  return out.toString('utf8');
}

/** What is stored of a reading: its laid-out text, or nothing when it holds no real words. Exported for tests. */
export function textOf(words: Word[]): { text: string; realWords: number } {
  const realWords = words.filter(isReal).length;
  return { text: realWords >= MIN_REAL_WORDS ? layOut(words) : '', realWords };
}

/** A reading, with how many words it read in all (real or not). */
type Reading = OcrResult & { wordsRead: number };

async function read(png: Buffer, rotated: number, timeoutMs: number): Promise<Reading> {
  const words = parseTsv(await tesseract(png, ['-l', 'eng', '--psm', '3', 'tsv'], timeoutMs));
  return { ...textOf(words), rotated, straightened: 0, wordsRead: words.length };
}

/** Read well enough to keep without looking for a better way up: many real words, and mostly real ones. */
const wellRead = (reading: Reading) =>
  reading.realWords >= TRY_ORIENTATION_BELOW && reading.realWords >= MIN_REAL_SHARE * reading.wordsRead;
const result = ({ text, realWords, rotated, straightened }: Reading): OcrResult => ({
  text,
  realWords,
  rotated,
  straightened,
});

/** How far to turn the image so its text stands upright, by tesseract's orientation detection (0 when unsure). */
async function uprightRotation(png: Buffer, timeoutMs: number): Promise<number> {
  // OSD fails on an image with too few characters: that is "unsure", not an error.
  const osd = await tesseract(png, ['--psm', '0'], timeoutMs).catch(() => '');
  const rotate = Number(/Rotate:\s*(\d+)/.exec(osd)?.[1] ?? 0);
  const confidence = Number(/Orientation confidence:\s*([\d.]+)/.exec(osd)?.[1] ?? 0);
  return [90, 180, 270].includes(rotate) && confidence >= 1.5 ? rotate : 0;
}

/** Lines skewed less than this are left as they are: tesseract reads them (docs/BENCHMARKS.md, OCR of photos). */
const STRAIGHTEN_FROM_DEGREES = 2;
/** The skews looked for: a page photographed by hand, not one on its side (orientation detection does that). */
const MAX_SKEW_DEGREES = 25;

/**
 * How many degrees the text's lines run downhill to the right (negative: uphill), from the image's dark pixels: the
 * angle whose projection piles them into the fewest, fullest rows (lines of text and the gaps between them). 0 when
 * the image has too little ink to tell. Exported for tests.
 */
export async function skewDegrees(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png)
    .greyscale()
    .resize({ width: 400, height: 400, fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++) {
      if ((data[y * info.width + x] ?? 255) < 128) {
        xs.push(x);
        ys.push(y);
      }
    }
  if (xs.length < 200) return 0;
  const rows = new Float64Array(info.height + info.width + 2);
  const sharpness = (degrees: number): number => {
    rows.fill(0);
    const slope = Math.tan((degrees * Math.PI) / 180);
    for (let i = 0; i < xs.length; i++) {
      const row = Math.round((ys[i] ?? 0) - (xs[i] ?? 0) * slope) + info.width;
      rows[row] = (rows[row] ?? 0) + 1;
    }
    let sum = 0;
    for (const n of rows) sum += n * n;
    return sum;
  };
  let best = 0;
  let bestScore = sharpness(0);
  const search = (from: number, to: number, step: number) => {
    for (let degrees = from; degrees <= to + 1e-9; degrees += step) {
      const score = sharpness(degrees);
      if (score > bestScore) {
        bestScore = score;
        best = degrees;
      }
    }
  };
  search(-MAX_SKEW_DEGREES, MAX_SKEW_DEGREES, 1);
  search(best - 1, best + 1, 0.1);
  return Math.round(best * 10) / 10;
}

/** The better of two readings: the one with more real words. */
const better = (a: Reading, b: Reading) => (b.realWords > a.realWords ? b : a);

/**
 * Reads the text of an image (a greyscale PNG). A page with few words read, or with mostly noise among them, may be
 * on its side or upside down: then tesseract says which way is up; or photographed askew, which tesseract's layout analysis does not follow beyond a few degrees
 * (a page turned 7° reads as empty): then its lines are straightened first. The best of the readings is kept. Text
 * is stored only when real words were read.
 */
export async function ocr(png: Buffer, timeoutMs = 60_000): Promise<OcrResult> {
  const first = await read(png, 0, timeoutMs);
  if (wellRead(first)) return result(first);
  const rotation = await uprightRotation(png, timeoutMs);
  let best = first;
  let upright = png;
  if (rotation !== 0) {
    upright = await sharp(png).rotate(rotation).png().toBuffer();
    best = better(best, await read(upright, rotation, timeoutMs));
    if (wellRead(best)) return result(best);
  }
  const skew = await skewDegrees(upright);
  if (Math.abs(skew) < STRAIGHTEN_FROM_DEGREES) return result(best);
  const straight = await sharp(upright).rotate(-skew, { background: '#ffffff' }).png().toBuffer();
  return result(better(best, { ...(await read(straight, rotation, timeoutMs)), straightened: skew }));
}

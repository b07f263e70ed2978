// Word error rate of the web's WAV encoders on the same recordings (keep one).
//
// The dashboard's recorder (features/ai, removed) resampled 48 kHz recordings to 16 kHz by plain linear
// interpolation with no low-pass filter. The assistant's rendered the decoded buffer into a 16 kHz
// OfflineAudioContext — which in Chromium resamples by linear interpolation too (AudioBufferSourceNode), with the
// same result: lib/audio/wav.ts, now used by both, is that one. A third column decodes at 16 kHz instead, so the
// decoder's band-limited resampler does the conversion (tried, not adopted: see docs/BENCHMARKS.md). Recordings: flite
// speech (16 kHz voices) upsampled to 48 kHz with sox, plus faint 9–20 kHz hiss as a microphone picks up (BENCH_HISS,
// sox volume), which unfiltered resampling folds into the speech band. Both encoders run in Debian Chromium on the same
// bytes; the server's local speech-to-text transcribes the results.
//
// Needs the build (npm run build) and flite + sox. Run: node scripts/run.mjs node bench/wav-encoders.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium.mjs';
import { root, startAtrium } from './files-lib.mjs';

/** The removed encoder, read from the commit before it was removed. */
const OLD_ENCODER_COMMIT = 'ed2cd1c';
const PORT = Number(process.env.BENCH_PORT ?? 3245);
const HISS = Number(process.env.BENCH_HISS ?? 0.08);

/** @type {[voice: string, text: string][]} */
const PHRASES = [
  ['slt', 'open the files page'],
  ['kal16', 'go to the pricing page'],
  ['slt', 'show me the notifications'],
  ['kal16', 'what time is it'],
  ['slt', 'the quick brown fox jumps over the lazy dog'],
  ['kal16', 'please send the report to the team this afternoon'],
  ['slt', 'seven eight nine ten'],
  ['kal16', 'open speech to text'],
];

/** @param {string} text */
const words = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

/**
 * Word-level Levenshtein distance.
 * @param {string[]} a
 * @param {string[]} b
 */
function editDistance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j] ?? 0;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

/**
 * Bundles a TypeScript module into a script that defines `globalThis[name]`.
 * @param {string} contents
 * @param {string} name
 */
async function bundle(contents, name) {
  const result = await build({
    stdin: { contents, loader: 'ts', resolveDir: root },
    bundle: true,
    format: 'iife',
    globalName: name,
    write: false,
    target: 'chrome120',
  });
  return result.outputFiles[0]?.text ?? '';
}

const work = mkdtempSync(path.join(tmpdir(), 'atrium-wav-'));
const server = await startAtrium({ port: PORT, dataDir: path.join(work, 'data') });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  await page.addScriptTag({
    content: await bundle(readFileSync(path.join(root, 'apps/web/src/lib/audio/wav.ts'), 'utf8'), 'NewWav'),
  });
  const oldSource = execFileSync('git', ['show', `${OLD_ENCODER_COMMIT}:apps/web/src/features/ai/lib/wav.ts`], {
    cwd: root,
    encoding: 'utf8',
  });
  await page.addScriptTag({ content: await bundle(oldSource, 'OldWav') });
  // The variant tried and not adopted: decode at 16 kHz, so the decoder resamples; same WAV writer.
  const at16kSource = `import { encodeWav } from './apps/web/src/lib/audio/wav';
export async function decodeAt16k(recording: Blob): Promise<Blob> {
  const context = new AudioContext({ sampleRate: 16000 });
  const decoded = await context.decodeAudioData(await recording.arrayBuffer());
  void context.close();
  const offline = new OfflineAudioContext(1, Math.max(1, decoded.length), 16000);
  const source = offline.createBufferSource();
  source.buffer = decoded;
  source.connect(offline.destination);
  source.start();
  return encodeWav((await offline.startRendering()).getChannelData(0), 16000);
}`;
  await page.addScriptTag({ content: await bundle(at16kSource, 'At16k') });

  /** @param {Buffer} wav */
  const transcribe = async (wav) => {
    const response = await fetch(`http://127.0.0.1:${PORT}/api/ai/speech-to-text`, {
      method: 'POST',
      headers: { cookie: server.cookie, 'content-type': 'audio/wav' },
      body: wav,
    });
    if (!response.ok) throw new Error(`speech-to-text: ${response.status} ${await response.text()}`);
    return /** @type {{ DisplayText: string }} */ (await response.json()).DisplayText;
  };

  const totals = { reference: 0, old: 0, new: 0, at16k: 0 };
  console.log(`hiss ${HISS} (sox vol), 48 kHz source`);
  console.log(
    'phrase | removed encoder (linear interpolation) | lib/audio/wav.ts (OfflineAudioContext) | decoded at 16 kHz',
  );
  for (const [index, [voice, text]] of PHRASES.entries()) {
    const speech = path.join(work, `${index}.wav`);
    const up = path.join(work, `${index}-48k.wav`);
    const hiss = path.join(work, `${index}-hiss.wav`);
    const mixed = path.join(work, `${index}-mixed.wav`);
    execFileSync('flite', ['-voice', voice, '-t', text, '-o', speech]);
    execFileSync('sox', [speech, '-r', '48000', up]);
    const seconds = execFileSync('soxi', ['-D', up], { encoding: 'utf8' }).trim();
    execFileSync('sox', ['-n', '-r', '48000', '-c', '1', hiss, 'synth', seconds, 'whitenoise', 'highpass', '9000']);
    execFileSync('sox', ['-m', up, '-v', String(HISS), hiss, mixed]);
    const source = readFileSync(mixed).toString('base64');
    const [oldWav, newWav, at16kWav] = await page.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const blob = new Blob([bytes], { type: 'audio/wav' });
      /** @param {Blob} b */
      const toBase64 = async (b) => {
        const data = new Uint8Array(await b.arrayBuffer());
        let s = '';
        for (let i = 0; i < data.length; i += 0x8000) s += String.fromCharCode(...data.subarray(i, i + 0x8000));
        return btoa(s);
      };
      const bundles =
        /** @type {{ OldWav: { recordingToWav(b: Blob): Promise<Blob> }, NewWav: { toSpeechWav(b: Blob): Promise<Blob> }, At16k: { decodeAt16k(b: Blob): Promise<Blob> } }} */ (
          /** @type {unknown} */ (globalThis)
        );
      return [
        await toBase64(await bundles.OldWav.recordingToWav(blob)),
        await toBase64(await bundles.NewWav.toSpeechWav(blob)),
        await toBase64(await bundles.At16k.decodeAt16k(blob)),
      ];
    }, source);
    const reference = words(text);
    const heardOld = await transcribe(Buffer.from(oldWav, 'base64'));
    const heardNew = await transcribe(Buffer.from(newWav, 'base64'));
    const heard16k = await transcribe(Buffer.from(at16kWav, 'base64'));
    const oldErrors = editDistance(reference, words(heardOld));
    const newErrors = editDistance(reference, words(heardNew));
    const errors16k = editDistance(reference, words(heard16k));
    totals.reference += reference.length;
    totals.old += oldErrors;
    totals.new += newErrors;
    totals.at16k += errors16k;
    console.log(
      `"${text}" | ${oldErrors} ("${heardOld}") | ${newErrors} ("${heardNew}") | ${errors16k} ("${heard16k}")`,
    );
  }
  /** @param {number} errors */
  const pct = (errors) => `${((100 * errors) / totals.reference).toFixed(1)}%`;
  console.log(
    `WER over ${totals.reference} words: removed encoder ${pct(totals.old)}, lib/audio/wav.ts ${pct(totals.new)}, decoded at 16 kHz ${pct(totals.at16k)}`,
  );
} finally {
  await browser.close();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

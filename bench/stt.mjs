// Speech to text (docs/PRODUCT.md#speech-to-text): word error rate (WER) and real-time factor (RTF) of the local
// pocketsphinx engine per set: Debian's pocketsphinx-testdata recordings (librivox, cards) with the package's
// reference transcripts, and fixed sentences spoken by each local voice (festival HTS slt, flite slt) with the
// same commands as the product's text-to-speech worker. Decoder configurations are compared side by side in one
// run: the product's defaults, documented pocketsphinx options, and the generic model interpolated with a bigram
// model of a workspace's text (stt-language-model.ts), on a set whose words come from that text and on the others.
// The decoder is driven in-process (PocketsphinxDecoder, the worker's own class); RTF is the decode's CPU time over
// the audio's duration (the machine is shared: wall time would count other jobs), median over rounds.
// Usage: node scripts/run.mjs tsx bench/stt.mjs [rounds]   (needs pocketsphinx-en-us, pocketsphinx-testdata,
// flite, festival + festvox-us-slt-hts, sox)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { PocketsphinxDecoder } from '../apps/server/src/adapters/ai/local/pocketsphinx.js';
import { buildArpa } from '../apps/server/src/adapters/ai/local/stt-language-model.js';
import { SENTENCES, TEXT, wer, words } from './text-lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 2);
const TESTDATA = '/usr/share/pocketsphinx/test/data';
const MODEL = '/usr/share/pocketsphinx/model/en-us';
const tmp = mkdtempSync(path.join(tmpdir(), 'atrium-stt-'));

/** @param {Buffer} wav 16 kHz mono 16-bit WAV → samples (data chunk). */
function samplesOf(wav) {
  let at = 12;
  while (at < wav.length) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'data') {
      const out = new Int16Array(size >> 1);
      for (let i = 0; i < out.length; i++) out[i] = wav.readInt16LE(at + 8 + i * 2);
      return out;
    }
    at += 8 + size + (size & 1);
  }
  throw new Error('no data chunk');
}

/** @param {'festival' | 'flite'} voice @param {string} text 16 kHz mono samples, as the product's TTS worker makes them. */
function speak(voice, text) {
  // Both write to a named file (neither can write to a pipe's /dev/stdout), then sox makes 16 kHz raw samples.
  const file = path.join(tmp, `${voice}.wav`);
  if (voice === 'festival')
    execFileSync('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', '-F', '16000', '-o', file], { input: text });
  else execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', file]);
  const raw = execFileSync('sox', ['-q', file, '-t', 'raw', '-r', '16000', '-e', 'signed', '-b', '16', '-c', '1', '-']);
  return new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + (raw.byteLength & ~1)));
}

// The "workspace" text: the opening of Pride and Prejudice (bench/text-lib.mjs TEXT), as if a stored file. The
// workspace set speaks ten-word windows of it; the adaptation model is written from the whole text.
const workspaceText = TEXT.join(' ');
const WORKSPACE_SENTENCES = [];
for (let i = 0; i + 10 <= TEXT.length; i += 14) WORKSPACE_SENTENCES.push(TEXT.slice(i, i + 10).join(' '));

/** @type {{ set: string, samples: Int16Array, reference: string }[]} */
const clips = [];
for (const [set, transcription] of /** @type {const} */ ([
  ['testdata librivox', `${TESTDATA}/librivox/transcription`],
  ['testdata cards', `${TESTDATA}/cards/cards.transcription`],
])) {
  for (const line of readFileSync(transcription, 'utf8').split('\n')) {
    const m = /^(.*)\(([^)]+)\)\s*$/.exec(line.trim());
    if (m)
      clips.push({
        set,
        samples: samplesOf(readFileSync(path.join(path.dirname(transcription), `${m[2]}.wav`))),
        reference: (m[1] ?? '').replace(/<\/?s>/g, ' '),
      });
  }
}
for (const voice of /** @type {const} */ (['festival', 'flite'])) {
  for (const text of SENTENCES) clips.push({ set: `office (${voice})`, samples: speak(voice, text), reference: text });
  for (const text of WORKSPACE_SENTENCES)
    clips.push({ set: `workspace (${voice})`, samples: speak(voice, text), reference: text });
}

const arpa = path.join(tmp, 'workspace.arpa');
writeFileSync(arpa, buildArpa(workspaceText) ?? '');

/** @type {{ name: string, args: string[], adapted?: number }[]} */
const configs = [
  { name: 'default (-maxhmmpf 4000)', args: [] },
  { name: '-lw 10', args: ['-lw', '10'] },
  { name: '-lw 4', args: ['-lw', '4'] },
  { name: '-fillprob 1e-2', args: ['-fillprob', '1e-2'] },
  { name: '-beam 1e-60 -wbeam 1e-50', args: ['-beam', '1e-60', '-wbeam', '1e-50'] },
  { name: '-bestpath no', args: ['-bestpath', 'no'] },
  { name: 'adapted, weight 0.3', args: [], adapted: 0.3 },
  { name: 'adapted, weight 0.5', args: [], adapted: 0.5 },
  { name: 'adapted, weight 0.7', args: [], adapted: 0.7 },
];
// STT_CONFIGS=0,6 runs only those rows (the machine is shared and slow).
const only = process.env.STT_CONFIGS?.split(',').map(Number);
if (only) configs.splice(0, configs.length, ...configs.filter((_, i) => only.includes(i)));
const sets = [...new Set(clips.map((c) => c.set))];
console.log(
  `date ${new Date().toISOString()} loadavg ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(
  `clips: ${sets.map((s) => `${s} ${clips.filter((c) => c.set === s).length}`).join(', ')}; workspace text ${TEXT.length} words`,
);
/** @type {Record<string, Record<string, { errors: number, words: number, audio: number, decode: number[] }>>} */
const table = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const config of configs) {
    const decoder = new PocketsphinxDecoder({ modelDir: MODEL, extraArgs: config.args });
    decoder.useAdaptedModel(config.adapted === undefined ? null : arpa, config.adapted);
    const row = (table[config.name] ??= {});
    /** @type {Record<string, number>} */
    const roundDecode = {};
    for (const clip of clips) {
      // CPU time of this (single-threaded) decode: the machine is shared, wall time would count other jobs.
      const started = process.cpuUsage();
      const { words: got } = decoder.decode(clip.samples);
      const used = process.cpuUsage(started);
      const seconds = (used.user + used.system) / 1e6;
      const s = (row[clip.set] ??= { errors: 0, words: 0, audio: 0, decode: [] });
      roundDecode[clip.set] = (roundDecode[clip.set] ?? 0) + seconds;
      if (round === 0) {
        const ref = words(clip.reference);
        s.errors += Math.round(wer(ref, words(got.map((w) => w.word).join(' '))) * ref.length);
        s.words += ref.length;
        s.audio += clip.samples.length / 16000;
      }
    }
    for (const [set, seconds] of Object.entries(roundDecode)) row[set]?.decode.push(seconds);
    decoder.free();
  }
  console.log(
    `round ${round + 1} done, loadavg ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}
const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
console.log(`\n| configuration | ${sets.map((s) => `${s} WER / RTF`).join(' | ')} |`);
console.log(`|---|${sets.map(() => '---').join('|')}|`);
for (const [name, row] of Object.entries(table)) {
  const cells = sets.map((set) => {
    const s = row[set];
    return s ? `${((100 * s.errors) / s.words).toFixed(1)} % / ${(median(s.decode) / s.audio).toFixed(3)}` : '';
  });
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
console.log(`\nwords per set: ${sets.map((s) => `${s} ${table[configs[0]?.name ?? '']?.[s]?.words}`).join(', ')}`);
console.log(
  `audio seconds per set: ${sets.map((s) => `${s} ${table[configs[0]?.name ?? '']?.[s]?.audio.toFixed(1)}`).join(', ')}`,
);
console.log(
  `loadavg at end ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);

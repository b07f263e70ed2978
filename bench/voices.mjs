// The local voices side by side (docs/PRODUCT.md#local-voices): festival's HTS voice and flite's slt, each behind
// its own Atrium (AI_LOCAL_VOICE), requests interleaved. For each voice: time to first byte and to the whole MP3 of
// `POST /api/ai/text-to-speech`, and a naturalness proxy: the word error rate when the offline recogniser
// (`POST /api/ai/speech-to-text`, pocketsphinx) transcribes the voice's speech back, with its real-time factor.
// Usage: npm run build && node bench/voices.mjs   (loopback only; needs Debian's festival + festvox-us-slt-hts)
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';

import { median, round, signInAdmin, spawnMeteredAtrium, waitReady } from './files-lib.mjs';
import { SENTENCES as OFFICE_SENTENCES, wer, words } from './text-lib.mjs';

const SENTENCES = ['the meeting is on monday morning please bring the budget report', ...OFFICE_SENTENCES];
const ROUNDS = 3;

const voices = /** @type {const} */ (['festival', 'flite']);
const servers = voices.map((voice, i) => {
  const port = 3221 + i;
  const dataDir = mkdtempSync(path.join(tmpdir(), `atrium-bench-voice-${voice}-`));
  const { server } = spawnMeteredAtrium({
    port,
    dataDir,
    env: { AI_LOCAL_VOICE: voice, AI_WARM_UP: 'true', AI_IDLE_UNLOAD_MINUTES: '0', ANALYSIS_ENABLED: 'false' },
  });
  return { voice, port, server, cookie: '' };
});

try {
  for (const one of servers) {
    await waitReady(one.port, ['ai.speechToText', 'ai.textToSpeech'], 120_000);
    one.cookie = (await signInAdmin(one.port)) ?? '';
  }
  /** @type {Record<string, { firstByte: number[], whole: number[], words: number, errors: number, audio: number, decode: number, heard: string[] }>} */
  const results = Object.fromEntries(
    voices.map((voice) => [voice, { firstByte: [], whole: [], words: 0, errors: 0, audio: 0, decode: 0, heard: [] }]),
  );
  const loadStart = loadavg().map((x) => round(x));
  for (let round_ = 0; round_ < ROUNDS; round_++) {
    for (const sentence of SENTENCES) {
      for (const one of servers) {
        const r = results[one.voice];
        if (!r) continue;
        const started = performance.now();
        const response = await fetch(`http://127.0.0.1:${one.port}/api/ai/text-to-speech`, {
          method: 'POST',
          headers: { cookie: one.cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ text: `${sentence}.` }),
        });
        const reader = response.body?.getReader();
        if (!response.ok || !reader) throw new Error(`${one.voice}: text-to-speech answered ${response.status}`);
        /** @type {Uint8Array[]} */
        const chunks = [];
        let first = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (first === 0) first = performance.now() - started;
          chunks.push(value);
        }
        r.firstByte.push(first);
        r.whole.push(performance.now() - started);
        if (round_ > 0) continue;
        // Round trip once per sentence: the recogniser is deterministic.
        const wav = execFileSync(
          'ffmpeg',
          ['-v', 'error', '-i', 'pipe:0', '-ar', '16000', '-ac', '1', '-f', 'wav', 'pipe:1'],
          {
            input: Buffer.concat(chunks),
          },
        );
        const decodeStart = performance.now();
        const stt = await fetch(`http://127.0.0.1:${one.port}/api/ai/speech-to-text`, {
          method: 'POST',
          headers: { cookie: one.cookie, 'content-type': 'audio/wav' },
          body: wav,
        });
        const heard = /** @type {{ DisplayText: string }} */ (await stt.json()).DisplayText;
        r.decode += performance.now() - decodeStart;
        r.audio += (wav.length - 44) / 32_000;
        const ref = words(sentence);
        r.words += ref.length;
        r.errors += Math.round(wer(ref, words(heard)) * ref.length);
        r.heard.push(heard);
      }
    }
  }
  const summary = Object.fromEntries(
    Object.entries(results).map(([voice, r]) => [
      voice,
      {
        roundTripWer: round(r.errors / r.words, 3),
        sttRealTimeFactor: round(r.decode / 1000 / r.audio, 3),
        firstByteMedianMs: Math.round(median(r.firstByte)),
        wholeMedianMs: Math.round(median(r.whole)),
        wholeMaxMs: Math.round(Math.max(...r.whole)),
        speechSeconds: round(r.audio, 1),
        firstHeard: r.heard[0],
      },
    ]),
  );
  console.log(
    JSON.stringify(
      {
        date: new Date().toISOString().slice(0, 10),
        loadavg: { start: loadStart, end: loadavg().map((x) => round(x)) },
        sentences: SENTENCES.length,
        rounds: ROUNDS,
        voices: summary,
      },
      null,
      2,
    ),
  );
} finally {
  for (const one of servers) one.server.kill('SIGTERM');
}

// Background analysis through the real server: photos analysed per minute (1024 px JPEGs: image analysis, faces and
// OCR), the server's event-loop lag and RSS while the queue is full, OCR time and word accuracy per page (Debian's
// tesseract on rendered A4 pages of known text), and the audio real-time factor of a 10-minute recording (flite speech
// of known text, looped with sox to 600 s, uploaded as 16 kHz WAV; time from upload until its insights are done, over
// 600 s) with the lag, RSS and the transcript's word error rate while it runs.
// Usage: npm run build && node bench/analysis.mjs [audioSeconds=600]   (loopback only; bounded; stops by itself)
// Run it at high priority on a shared machine: nice -n -15 node scripts/run.mjs node bench/analysis.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { median, root, round, rssOf, startAtrium } from './files-lib.mjs';
import { TEXT, page, pageLines, wer, words } from './text-lib.mjs';

const require = createRequire(path.join(root, 'apps/server/package.json'));
const sharp = require('sharp');
const port = 3406;
const base = `http://127.0.0.1:${port}`;
const PHOTOS = 12;
const PAGES = 3;
const AUDIO_SECONDS = Number(process.argv[2] ?? 600);

const load = () => loadavg().map((x) => round(x));

const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-analysis-'));
const metricsToken = 'bench-metrics-token-0123456789';
const scrapeMetrics = async () =>
  (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
/** @param {string} text @param {string} name */
const gauge = (text, name) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
const loadAtStart = load();
// startAtrium waits until every readiness probe (the AI engines warming up included) is ok.
const server = await startAtrium({
  port,
  dataDir,
  env: { METRICS_TOKEN: metricsToken, AI_WARM_UP: 'true', ANALYSIS_ENABLED: 'true' },
});
let stopped = false;
const stop = async () => {
  if (stopped) return;
  stopped = true;
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', () => {
  try {
    process.kill(server.pid);
  } catch {
    // already gone
  }
});
const rssMb = () => {
  try {
    return rssOf(server.pid) / 1024 / 1024;
  } catch {
    return NaN;
  }
};

/**
 * Polls `/healthz` every 20 ms and samples the RSS until the returned function is called; reads prom-client's lag
 * gauges first (reading them resets its histogram), so their p99/max cover this phase only.
 */
async function watch() {
  await scrapeMetrics();
  /** @type {number[]} */
  const health = [];
  let running = true;
  let failures = 0;
  const rssAtStart = rssMb();
  let maxRss = rssAtStart;
  const poller = (async () => {
    while (running) {
      const t = performance.now();
      // A refused or reset request (a kept-alive socket the server closed) counts as a failure, not a sample.
      if (
        await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        health.push(performance.now() - t);
      else failures += 1;
      maxRss = Math.max(maxRss, rssMb());
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return async () => {
    running = false;
    await poller;
    const metrics = await scrapeMetrics();
    return {
      lagMaxMs: round(gauge(metrics, 'nodejs_eventloop_lag_max_seconds'), 1),
      lagP99Ms: round(gauge(metrics, 'nodejs_eventloop_lag_p99_seconds'), 1),
      healthzRoundTripMedianMs: round(median(health), 1),
      healthzRoundTripMaxMs: round(Math.max(...health), 1),
      healthzSamples: health.length,
      healthzFailures: failures,
      rssAtStartMb: Math.round(rssAtStart),
      maxRssMb: Math.round(maxRss),
    };
  };
}

try {
  const cookie = server.cookie;
  /** @param {string} name @param {Buffer} bytes */
  const upload = async (name, bytes) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const response = await fetch(`${base}/api/files/upload?userId=admin`, {
      method: 'POST',
      headers: { cookie, accept: 'application/json' },
      body: form,
    });
    if (response.status !== 200) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
    return /** @type {{ id: string }} */ (await response.json()).id;
  };
  /** @param {string} id */
  const insights = async (id) =>
    /** @type {{ status: string, text?: string }} */ (
      await (await fetch(`${base}/api/files/${id}/insights`, { headers: { cookie } })).json()
    );

  // Photos: a 1024 px JPEG with faces, mirrored or rotated so each is a different picture.
  const sample = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample1.jpg');
  const photos = await Promise.all(
    Array.from({ length: PHOTOS }, (_, i) =>
      sharp(sample)
        .resize(1024)
        .rotate(i % 4 === 0 ? 0 : 180 * (i % 2))
        .flop(i % 3 === 0)
        .modulate({ brightness: 1 + (i % 5) / 50 })
        .jpeg({ quality: 90 })
        .toBuffer(),
    ),
  );
  let stopWatching = await watch();
  const t0 = performance.now();
  const ids = [];
  for (const [i, photo] of photos.entries()) ids.push(await upload(`photo-${i}.jpg`, photo));
  const uploaded = performance.now() - t0;
  for (;;) {
    const states = await Promise.all(ids.map(async (id) => (await insights(id)).status));
    if (states.every((s) => s !== 'pending' && s !== 'running')) {
      if (states.some((s) => s !== 'done')) throw new Error(`photos: ${states.join(', ')}`);
      break;
    }
    if (performance.now() - t0 > 600_000) throw new Error('the photos were not analysed within 10 minutes');
    await new Promise((r) => setTimeout(r, 200));
  }
  const wall = performance.now() - t0;
  const whilePhotos = await stopWatching();
  const results = {
    photos: {
      count: PHOTOS,
      uploadMs: Math.round(uploaded),
      wallMs: Math.round(wall),
      photosPerMinute: round((PHOTOS / wall) * 60_000, 1),
    },
    eventLoopWhileQueueFull: whilePhotos,
    loadAtStart,
    loadAfterPhotos: load(),
  };
  console.log(results);

  // OCR per page: tesseract as the analysis runs it (stdin → stdout, one OpenMP thread), on rendered pages of known text.
  /** @type {number[]} */
  const ocrMs = [];
  let correct = 0;
  let total = 0;
  for (let p = 0; p < PAGES; p += 1) {
    const lines = pageLines(30);
    const png = await page(lines);
    const t = performance.now();
    const out = execFileSync('tesseract', ['-', '-', '-l', 'eng', '--psm', '3'], {
      input: png,
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    }).toString();
    ocrMs.push(performance.now() - t);
    const expected = words(lines.join(' '));
    const got = new Set(words(out));
    correct += expected.filter((w) => got.has(w)).length;
    total += expected.length;
  }
  const ocr = {
    pages: PAGES,
    medianSecondsPerPage: round(median(ocrMs) / 1000, 2),
    wordsFoundPercent: round((100 * correct) / total, 1),
  };
  console.log({ ocr });

  // Audio: a recording of AUDIO_SECONDS (flite reading TEXT, half a second of silence after each reading, looped
  // with sox), uploaded as 16 kHz mono WAV and timed until its insights are done.
  const speech = path.join(dataDir, 'speech.wav');
  const padded = path.join(dataDir, 'padded.wav');
  const recording = path.join(dataDir, 'recording.wav');
  execFileSync('flite', ['-t', TEXT.join(' '), '-o', speech]);
  execFileSync('sox', [speech, '-r', '16000', '-c', '1', padded, 'pad', '0', '0.5']);
  const once = Number(execFileSync('soxi', ['-D', padded]).toString());
  const repeats = Math.ceil(AUDIO_SECONDS / once);
  execFileSync('sox', [padded, recording, 'repeat', String(repeats - 1), 'trim', '0', String(AUDIO_SECONDS)]);
  const seconds = Number(execFileSync('soxi', ['-D', recording]).toString());
  const wavBytes = readFileSync(recording);
  // The words spoken: TEXT per full reading, and the share of the last one that fits.
  const spoken = Array.from({ length: repeats }, () => words(TEXT.join(' '))).flat();
  const reference = spoken.slice(0, Math.round((spoken.length * seconds) / (once * repeats)));
  const loadBeforeAudio = load();
  stopWatching = await watch();
  const a0 = performance.now();
  const audioId = await upload('recording.wav', wavBytes);
  /** @type {{ status: string, progress?: number, transcript?: { text: string, segments: unknown[] } }} */
  let audio;
  for (;;) {
    audio = await insights(audioId);
    if (audio.status !== 'pending' && audio.status !== 'running') break;
    if (performance.now() - a0 > 3 * AUDIO_SECONDS * 1000) throw new Error('the recording took over 3× real time');
    await new Promise((r) => setTimeout(r, 500));
  }
  const audioMs = performance.now() - a0;
  const whileAudio = await stopWatching();
  if (audio.status !== 'done') throw new Error(`audio: ${JSON.stringify(audio)}`);
  const hypothesis = words(audio.transcript?.text ?? '');
  const audioResult = {
    recordingSeconds: round(seconds, 1),
    wavMiB: round(wavBytes.length / 1024 / 1024, 1),
    wallSeconds: round(audioMs / 1000, 1),
    realTimeFactor: round(audioMs / 1000 / seconds, 3),
    segments: audio.transcript?.segments.length ?? 0,
    wordErrorRate: round(wer(reference, hypothesis), 3),
    referenceWords: reference.length,
    transcriptWords: hypothesis.length,
    eventLoopWhileTranscribing: whileAudio,
    loadBefore: loadBeforeAudio,
    loadAfter: load(),
  };
  console.log({ audio: audioResult });
  console.log(JSON.stringify({ ...results, ocr, audio: audioResult, loadavgAtEnd: load() }, null, 2));
} finally {
  await stop();
}

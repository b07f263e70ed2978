// Local AI engines through the real server: speech-to-text real-time factor and word error rate
// (flite speech and Debian's pocketsphinx-testdata recordings), text-to-speech time for a 20-word
// sentence, face detection and image analysis on a 1024 px photo, and the server's event-loop lag
// while 4 AI requests run at once. Adapted from the engines' own benchmark to go through HTTP.
// Usage: npm run build && node bench/ai-local.mjs   (loopback only; bounded; stops by itself)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { median, round, signInAdmin, spawnMeteredAtrium, waitReady } from './files-lib.mjs';
import { SENTENCES } from './text-lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'apps/server/package.json'));
const sharp = require('sharp');
const port = 3207;
const base = `http://127.0.0.1:${port}`;
const REPEAT = 7;
const TESTDATA = '/usr/share/pocketsphinx/test/data';

/** @param {string} text */
const words = (text) =>
  text
    .toLowerCase()
    .replace(/<\/?s>/g, ' ')
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
/** Word-level Levenshtein distance. @param {string[]} ref @param {string[]} hyp */
function editDistance(ref, hyp) {
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const current = [i];
    for (let j = 1; j <= hyp.length; j++) {
      current[j] = Math.min(
        (previous[j - 1] ?? 0) + (ref[i - 1] === hyp[j - 1] ? 0 : 1),
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
      );
    }
    previous = current;
  }
  return previous[hyp.length] ?? 0;
}
/** Duration of a PCM WAV from its header. @param {Buffer} wav */
function wavSeconds(wav) {
  let offset = 12;
  let byteRate = 0;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('ascii', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    if (id === 'fmt ') byteRate = wav.readUInt32LE(offset + 16);
    if (id === 'data') return Math.min(size, wav.length - offset - 8) / byteRate;
    offset += 8 + size + (size % 2);
  }
  throw new Error('not a WAV');
}

const TWENTY =
  'Please remember that the weekly planning meeting starts at ten in the morning and everyone should bring their notes along.';

const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-ai-'));
const { server, scrapeMetrics } = spawnMeteredAtrium({
  port,
  dataDir,
  // Models load at start (they load on first use by default) and stay for the whole run.
  env: { AI_WARM_UP: 'true', AI_IDLE_UNLOAD_MINUTES: '0' },
});

try {
  await waitReady(port, ['ai.speechToText', 'ai.textToSpeech', 'ai.faceDetection', 'ai.imageAnalysis'], 120_000);
  const cookie = await signInAdmin(port);
  // CPU time of the server process (all threads), from /proc (Linux, USER_HZ = 100): unlike wall
  // time it hardly depends on what else the shared machine is running.
  const serverCpuMs = () => {
    try {
      const stat = readFileSync(`/proc/${server.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      return NaN;
    }
  };
  /** @param {string} url @param {Buffer | string} body @param {string} type */
  const post = async (url, body, type) => {
    const started = performance.now();
    const cpuStart = serverCpuMs();
    const response = await fetch(`${base}${url}`, {
      method: 'POST',
      headers: { cookie: cookie ?? '', 'content-type': type },
      body,
    });
    /** @type {any} */
    const payload = response.headers.get('content-type')?.startsWith('audio/')
      ? Buffer.from(await response.arrayBuffer())
      : await response.json();
    if (!response.ok) throw new Error(`${url}: ${response.status} ${JSON.stringify(payload)}`);
    return { ms: performance.now() - started, cpuMs: serverCpuMs() - cpuStart, payload };
  };
  /** @type {Record<string, unknown>} */
  const results = { date: new Date().toISOString().slice(0, 10), loadavgAtStart: loadavg().map((x) => round(x)) };

  // Speech to text: real-time factor and word error rate per set.
  const tmp = path.join(dataDir, 'wav');
  execFileSync('mkdir', ['-p', tmp]);
  /** @type {{ set: string, wav: Buffer, reference: string }[]} */
  const clips = SENTENCES.map((text, i) => {
    const file = path.join(tmp, `s${i}.wav`);
    execFileSync('flite', ['-voice', 'slt', '-t', text, '-o', file]);
    return { set: 'flite (slt, 16 kHz)', wav: readFileSync(file), reference: text };
  });
  for (const [set, transcription] of /** @type {const} */ ([
    ['pocketsphinx-testdata librivox', `${TESTDATA}/librivox/transcription`],
    ['pocketsphinx-testdata cards', `${TESTDATA}/cards/cards.transcription`],
  ])) {
    for (const line of readFileSync(transcription, 'utf8').split('\n')) {
      const m = /^(.*)\(([^)]+)\)\s*$/.exec(line.trim());
      if (m)
        clips.push({
          set,
          wav: readFileSync(path.join(path.dirname(transcription), `${m[2]}.wav`)),
          reference: m[1] ?? '',
        });
    }
  }
  /** @type {Record<string, {clips: number, words: number, errors: number, audio: number, decode: number, cpu: number}>} */
  const sets = {};
  for (const clip of clips) {
    const { ms, cpuMs, payload } = await post('/api/ai/speech-to-text', clip.wav, 'audio/wav');
    const ref = words(clip.reference);
    const s = (sets[clip.set] ??= { clips: 0, words: 0, errors: 0, audio: 0, decode: 0, cpu: 0 });
    s.clips += 1;
    s.words += ref.length;
    s.errors += editDistance(ref, words(payload.DisplayText));
    s.audio += wavSeconds(clip.wav);
    s.decode += ms / 1000;
    s.cpu += cpuMs / 1000;
  }
  results.speechToText = Object.fromEntries(
    Object.entries(sets).map(([set, s]) => [
      set,
      {
        clips: s.clips,
        words: s.words,
        wer: round(s.errors / s.words, 3),
        audioSeconds: round(s.audio, 1),
        rtf: round(s.decode / s.audio, 3),
        serverCpuRtf: round(s.cpu / s.audio, 3),
      },
    ]),
  );
  console.log('speech-to-text', results.speechToText);

  // Text to speech: a 20-word sentence.
  /** @type {number[]} */
  const tts = [];
  for (let i = 0; i < REPEAT; i++)
    tts.push((await post('/api/ai/text-to-speech', JSON.stringify({ text: TWENTY }), 'application/json')).ms);
  results.textToSpeech = {
    words: TWENTY.split(/\s+/).length,
    medianMs: Math.round(median(tts)),
    minMs: Math.round(Math.min(...tts)),
  };
  console.log('text-to-speech', results.textToSpeech);

  // Face detection and image analysis on a 1024 px photo.
  const photo = await sharp(
    path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample1.jpg'),
  )
    .resize(1024)
    .jpeg({ quality: 90 })
    .toBuffer();
  /** @type {number[]} */
  const face = [];
  /** @type {number[]} */
  const vision = [];
  /** @type {number[]} */
  const faceCpu = [];
  /** @type {number[]} */
  const visionCpu = [];
  let faces = 0;
  let caption = '';
  for (let i = 0; i < REPEAT; i++) {
    const f = await post('/api/ai/face-detection', photo, 'image/jpeg');
    face.push(f.ms);
    faceCpu.push(f.cpuMs);
    faces = f.payload.length;
    const v = await post('/api/ai/image-analysis', photo, 'image/jpeg');
    vision.push(v.ms);
    visionCpu.push(v.cpuMs);
    caption = v.payload.description.captions[0]?.text ?? '';
  }
  results.faceDetection = {
    faces,
    medianMs: Math.round(median(face)),
    minMs: Math.round(Math.min(...face)),
    serverCpuMedianMs: Math.round(median(faceCpu)),
  };
  results.imageAnalysis = {
    caption,
    medianMs: Math.round(median(vision)),
    minMs: Math.round(Math.min(...vision)),
    serverCpuMedianMs: Math.round(median(visionCpu)),
  };
  console.log('face detection', results.faceDetection, 'image analysis', results.imageAnalysis);

  // Event-loop lag of the server while 4 AI requests run at once: prom-client's lag gauges
  // (reset at each scrape) plus /healthz round trips every 20 ms.
  /** @param {string} text @param {string} name */
  const gauge = (text, name) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  await scrapeMetrics();
  const librivox = readFileSync(`${TESTDATA}/librivox/sense_and_sensibility_01_austen_64kb-0870.wav`);
  /** @type {number[]} */
  const health = [];
  let running = true;
  const poller = (async () => {
    while (running) {
      const t = performance.now();
      await fetch(`${base}/healthz`);
      health.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const t0 = performance.now();
  await Promise.all([
    post('/api/ai/speech-to-text', librivox, 'audio/wav'),
    post('/api/ai/text-to-speech', JSON.stringify({ text: TWENTY }), 'application/json'),
    post('/api/ai/face-detection', photo, 'image/jpeg'),
    post('/api/ai/image-analysis', photo, 'image/jpeg'),
  ]);
  const wall = performance.now() - t0;
  running = false;
  await poller;
  const metrics = await scrapeMetrics();
  results.eventLoop = {
    wallMs: Math.round(wall),
    lagMaxMs: round(gauge(metrics, 'nodejs_eventloop_lag_max_seconds'), 1),
    lagP99Ms: round(gauge(metrics, 'nodejs_eventloop_lag_p99_seconds'), 1),
    healthzRoundTripMedianMs: round(median(health), 1),
    healthzRoundTripMaxMs: round(Math.max(...health), 1),
    healthzSamples: health.length,
  };
  console.log('event loop while 4 AI requests run', results.eventLoop);
  results.loadavgAtEnd = loadavg().map((x) => round(x));
  console.log(JSON.stringify(results, null, 2));
} finally {
  server.kill('SIGTERM'); // the exit handler removes the data folder
}

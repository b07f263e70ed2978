// Idle memory of one built server with the local AI engines: RSS (all threads, from
// /proc/<pid>/status) (a) after /readyz answers, models not loaded (the default: they load on first
// use), (b) after one request to each of the four AI services (models loaded), (c) after the idle
// unload (AI_IDLE_UNLOAD_MINUTES without requests), repeated for `cycles` load/unload rounds.
// Usage: npm run build && node bench/memory-idle.mjs [idleMinutes=0.5] [cycles=2] [settleSeconds=10]
// (loopback only, port 3241; bounded: stops by itself)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { root, startAtrium } from './files-lib.mjs';

const require = createRequire(path.join(root, 'apps/server/package.json'));
const idleMinutes = Number(process.argv[2] ?? 0.5);
const cycles = Number(process.argv[3] ?? 2);
const settleMs = Number(process.argv[4] ?? 10) * 1000;
const port = 3241;
const base = `http://127.0.0.1:${port}`;
const SERVICES = ['speechToText', 'textToSpeech', 'faceDetection', 'imageAnalysis'];
const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (
  await fetch(`${base}/healthz`).then(
    () => true,
    () => false,
  )
)
  throw new Error(`port ${port} is already in use: stop what listens there first`);

const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-memory-'));
const started = Date.now();
const atrium = await startAtrium({ port, dataDir, env: { AI_IDLE_UNLOAD_MINUTES: String(idleMinutes) } });
const readyMs = Date.now() - started;
const { cookie } = atrium;

/** RSS, peak RSS (MiB) and thread count of the server process. */
const memory = () => {
  const status = readFileSync(`/proc/${atrium.pid}/status`, 'utf8');
  const field = (/** @type {string} */ name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  return {
    rssMiB: Math.round(field('VmRSS') / 1024),
    peakMiB: Math.round(field('VmHWM') / 1024),
    threads: field('Threads'),
  };
};

try {
  const status = async () =>
    /** @type {Record<string, { loaded?: boolean }>} */ (
      await (await fetch(`${base}/api/ai/status`, { headers: { cookie } })).json()
    );
  const loaded = async () => {
    const s = await status();
    return SERVICES.filter((name) => s[name]?.loaded).length;
  };
  /** @param {string} url @param {Buffer | string} body @param {string} type */
  const post = async (url, body, type) => {
    const response = await fetch(`${base}${url}`, { method: 'POST', headers: { cookie, 'content-type': type }, body });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
  };
  const wavFile = path.join(dataDir, 'hello.wav');
  execFileSync('flite', ['-voice', 'slt', '-t', 'good morning everyone', '-o', wavFile]);
  const wav = readFileSync(wavFile);
  const photo = readFileSync(
    path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', 'sample1.jpg'),
  );

  const rows = [];
  await sleep(settleMs);
  rows.push({
    when: `(a) ready and signed in after ${readyMs} ms, +${settleMs / 1000} s, models not loaded`,
    loaded: await loaded(),
    ...memory(),
  });
  for (let cycle = 1; cycle <= cycles; cycle++) {
    const t0 = Date.now();
    await post('/api/ai/speech-to-text', wav, 'audio/wav');
    await post('/api/ai/text-to-speech', JSON.stringify({ text: 'Good morning.' }), 'application/json');
    await post('/api/ai/face-detection', photo, 'image/jpeg');
    await post('/api/ai/image-analysis', photo, 'image/jpeg');
    const firstRequestsMs = Date.now() - t0;
    await sleep(settleMs);
    rows.push({
      when: `(b) cycle ${cycle}: one request per service (${firstRequestsMs} ms in all, loads included), +${settleMs / 1000} s`,
      loaded: await loaded(),
      ...memory(),
    });
    const deadline = Date.now() + idleMinutes * 60_000 + 60_000;
    while ((await loaded()) > 0) {
      if (Date.now() > deadline) throw new Error('the engines were not unloaded in time');
      await sleep(1000);
    }
    await sleep(settleMs);
    rows.push({
      when: `(c) cycle ${cycle}: unloaded after ${idleMinutes} min idle, +${settleMs / 1000} s`,
      loaded: await loaded(),
      ...memory(),
    });
  }
  console.log(
    JSON.stringify({ date: new Date().toISOString(), loadavgAtEnd: loadavg().map((x) => Math.round(x * 100) / 100) }),
  );
  console.table(rows);
} finally {
  await atrium.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

// Background analysis through the real server: photos analysed per minute (1024 px JPEGs: image analysis, faces and
// OCR), the server's event-loop lag and RSS while the queue is full, and OCR time and word accuracy per page
// (Debian's tesseract on rendered A4 pages of known text).
// Usage: npm run build && node bench/analysis.mjs   (loopback only; bounded; stops by itself)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'apps/server/package.json'));
const sharp = require('sharp');
const port = 3217;
const base = `http://127.0.0.1:${port}`;
const PHOTOS = 12;
const PAGES = 3;

/** @param {number} x */
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
/** @param {number[]} xs */
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return (s.length % 2 ? s[m] : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2) ?? 0;
};
/** @param {string} text */
const words = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-analysis-'));
const metricsToken = 'bench-metrics-token-0123456789';
const scrapeMetrics = async () =>
  (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
/** @param {string} text @param {string} name */
const gauge = (text, name) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'bench-admin-pass',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    SESSION_SECRET: 'b'.repeat(40),
    METRICS_TOKEN: metricsToken,
    AI_WARM_UP: 'true',
    ANALYSIS_ENABLED: 'true',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stop = () => {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', stop);
const rssMb = () => {
  try {
    const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
};

/** An A4 page (1240×1754, 150 dpi) of `lines` in a serif font, as a scan would look. @param {string[]} lines */
const page = (lines) =>
  sharp(
    Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="1754">
      <rect width="100%" height="100%" fill="white"/>
      ${lines.map((line, i) => `<text x="110" y="${160 + i * 46}" font-family="DejaVu Serif" font-size="30">${line}</text>`).join('')}
    </svg>`),
  )
    .greyscale()
    .png()
    .toBuffer();
const TEXT =
  `It is a truth universally acknowledged that a single man in possession of a good fortune must be in want of a
wife However little known the feelings or views of such a man may be on his first entering a neighbourhood this
truth is so well fixed in the minds of the surrounding families that he is considered the rightful property of some
one or other of their daughters My dear Mr Bennet said his lady to him one day have you heard that Netherfield Park
is let at last Mr Bennet replied that he had not But it is returned she for Mrs Long has just been here and she told
me all about it Mr Bennet made no answer Do you not want to know who has taken it cried his wife impatiently You
want to tell me and I have no objection to hearing it This was invitation enough`
    .replace(/\n/g, ' ')
    .split(' ');

try {
  const deadline = Date.now() + 180_000;
  let ready = false;
  while (!ready && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const r = await fetch(`${base}/readyz`).catch(() => null);
    const body = /** @type {{ checks: Record<string, { status: string }> } | null} */ (
      r ? await r.json().catch(() => null) : null
    );
    ready = !!body && ['ai.faceDetection', 'ai.imageAnalysis'].every((n) => body.checks[n]?.status === 'ok');
  }
  if (!ready) throw new Error('the AI engines did not become ready within 180 s');
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'bench-admin-pass' }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
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
  await scrapeMetrics();
  /** @type {number[]} */
  const health = [];
  let running = true;
  let maxRss = rssMb();
  const poller = (async () => {
    while (running) {
      const t = performance.now();
      await fetch(`${base}/healthz`);
      health.push(performance.now() - t);
      maxRss = Math.max(maxRss, rssMb());
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
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
  running = false;
  await poller;
  const metrics = await scrapeMetrics();
  const results = {
    photos: {
      count: PHOTOS,
      uploadMs: Math.round(uploaded),
      wallMs: Math.round(wall),
      photosPerMinute: round((PHOTOS / wall) * 60_000, 1),
    },
    eventLoopWhileQueueFull: {
      lagMaxMs: round(gauge(metrics, 'nodejs_eventloop_lag_max_seconds'), 1),
      lagP99Ms: round(gauge(metrics, 'nodejs_eventloop_lag_p99_seconds'), 1),
      healthzRoundTripMedianMs: round(median(health), 1),
      healthzRoundTripMaxMs: round(Math.max(...health), 1),
      healthzSamples: health.length,
    },
    maxRssMb: Math.round(maxRss),
  };
  console.log(results);

  // OCR per page: tesseract as the analysis runs it (stdin → stdout), on rendered pages of known text.
  /** @type {number[]} */
  const ocrMs = [];
  let correct = 0;
  let total = 0;
  for (let p = 0; p < PAGES; p += 1) {
    const lines = [];
    for (let i = 0; i < TEXT.length; i += 9) lines.push(TEXT.slice(i, i + 9).join(' '));
    const png = await page(lines.slice(0, 30));
    const t = performance.now();
    const out = execFileSync('tesseract', ['-', '-', '-l', 'eng', '--psm', '3'], { input: png }).toString();
    ocrMs.push(performance.now() - t);
    const expected = words(lines.slice(0, 30).join(' '));
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
  console.log(JSON.stringify({ ...results, ocr, loadavgAtEnd: loadavg().map((x) => round(x)) }, null, 2));
} finally {
  stop();
}

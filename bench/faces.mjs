// Face detection quality (docs/PRODUCT.md#people): recall and precision on photos that ship in packages, with boxes
// labelled once by hand (bench/faces/labels.json), and on close-ups made from them: a square around each labelled face
// at 1.15× its size (the face fills the frame), 1.8× (a head) and 3.5× (head and shoulders), each at 420×420 px —
// the shots the detector used to miss. Negatives (a cat, a cup, a rocket, a motorcycle) count every face found as a
// false one. Time per photo at 1024 px (the worker's inference size) on the full photos, wall and CPU.
//
// Usage: node scripts/run.mjs tsx bench/faces.mjs   (needs apt to download python3-skimage's .deb: nothing installed)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createFaceDetection } from '../apps/server/src/adapters/ai/local/face-detection.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '..', 'apps/server/package.json'));
const sharp = require('sharp');
/** @type {{ photos: { package: string, file: string, faces: number[][], note?: string }[] }} */
const labels = JSON.parse(readFileSync(path.join(here, 'faces', 'labels.json'), 'utf8'));

/** @param {number} x */
const round = (x, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;

/** scikit-image's test photos, unpacked from Debian's .deb (downloaded, not installed). */
function skimageData() {
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-faces-'));
  execFileSync('apt-get', ['download', 'python3-skimage'], { cwd: dir, stdio: 'ignore' });
  const deb = execFileSync('sh', ['-c', 'ls python3-skimage_*.deb'], { cwd: dir, encoding: 'utf8' }).trim();
  execFileSync('dpkg-deb', ['-x', path.join(dir, deb), path.join(dir, 'x')]);
  return path.join(dir, 'x/usr/lib/python3/dist-packages/skimage/data');
}
const faceApiDir = path.dirname(require.resolve('@vladmandic/face-api/package.json'));
const skimage = skimageData();
/** @param {{ package: string, file: string }} photo */
const fileOf = (photo) => path.join(photo.package === 'python3-skimage' ? skimage : faceApiDir, photo.file);

/** Intersection over union of two [left, top, width, height] boxes. @param {number[]} a @param {number[]} b */
function iou(a, b) {
  const [ax = 0, ay = 0, aw = 0, ah = 0] = a;
  const [bx = 0, by = 0, bw = 0, bh = 0] = b;
  const w = Math.max(0, Math.min(ax + aw, bx + bw) - Math.max(ax, bx));
  const h = Math.max(0, Math.min(ay + ah, by + bh) - Math.max(ay, by));
  return (w * h) / (aw * ah + bw * bh - w * h);
}
/** Labelled faces found (IoU ≥ 0.3 with one found box, each used once) and found boxes that match none. */
function score(/** @type {number[][]} */ truth, /** @type {number[][]} */ found) {
  const used = new Set();
  let hits = 0;
  for (const t of truth) {
    const i = found.findIndex((f, j) => !used.has(j) && iou(t, f) >= 0.3);
    if (i >= 0) {
      used.add(i);
      hits++;
    }
  }
  return { hits, falseFaces: found.length - used.size };
}

const engine = createFaceDetection();
await engine.warmUp();
/** @param {Buffer} jpeg */
const detect = async (jpeg) =>
  (await engine.detectFaces(jpeg)).map((f) => [
    f.faceRectangle.left,
    f.faceRectangle.top,
    f.faceRectangle.width,
    f.faceRectangle.height,
  ]);

const totals = { faces: 0, hits: 0, falseFaces: 0, found: 0 };
/** @type {number[]} */
const times = [];
/** @type {number[]} */
const cpuTimes = [];
/** @type {string[]} */
const missedOrFalse = [];
for (const photo of labels.photos) {
  const file = fileOf(photo);
  if (!existsSync(file)) throw new Error(`missing ${file}`);
  const meta = await sharp(file).metadata();
  const scale = Math.min(1, 1024 / Math.max(meta.width ?? 1, meta.height ?? 1));
  const jpeg = await sharp(file)
    .resize(Math.round((meta.width ?? 1) * scale))
    .jpeg({ quality: 92 })
    .toBuffer();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const found = (await detect(jpeg)).map((box) => box.map((v) => v / scale));
  times.push(performance.now() - started);
  // CPU time of the process (the worker threads included): less moved by what else the machine runs than wall time.
  const used = process.cpuUsage(cpu);
  cpuTimes.push((used.user + used.system) / 1000);
  const { hits, falseFaces } = score(photo.faces, found);
  totals.faces += photo.faces.length;
  totals.hits += hits;
  totals.falseFaces += falseFaces;
  totals.found += found.length;
  if (hits < photo.faces.length || falseFaces > 0)
    missedOrFalse.push(`${photo.file}: ${photo.faces.length - hits} missed, ${falseFaces} false`);
}

/** @type {Record<string, { faces: number, hits: number }>} */
const closeUps = {};
for (const photo of labels.photos) {
  for (const face of photo.faces) {
    const [left = 0, top = 0, width = 0, height = 0] = face;
    for (const [name, k] of /** @type {const} */ ([
      ['fills the frame (1.15×)', 1.15],
      ['head (1.8×)', 1.8],
      ['head and shoulders (3.5×)', 3.5],
    ])) {
      const side = Math.round(Math.max(width, height) * k);
      const cx = left + width / 2;
      const cy = top + height / 2;
      const file = fileOf(photo);
      const meta = await sharp(file).metadata();
      // Extend the photo's edges where the square reaches past them (a close-up at a border).
      const pad = side;
      const extended = await sharp(file)
        .extend({ top: pad, bottom: pad, left: pad, right: pad, extendWith: 'copy' })
        .png()
        .toBuffer();
      const crop = await sharp(extended)
        .extract({
          left: Math.round(cx - side / 2 + pad),
          top: Math.round(cy - side / 2 + pad),
          width: Math.min(side, (meta.width ?? 0) + 2 * pad),
          height: Math.min(side, (meta.height ?? 0) + 2 * pad),
        })
        .resize(420, 420)
        .jpeg({ quality: 92 })
        .toBuffer();
      const s = 420 / side;
      const truth = [[(side - width) * 0.5 * s, (side - height) * 0.5 * s, width * s, height * s]];
      const { hits } = score(truth, await detect(crop));
      const c = (closeUps[name] ??= { faces: 0, hits: 0 });
      c.faces += 1;
      c.hits += hits;
      if (hits === 0) missedOrFalse.push(`${photo.file} face at ${left},${top}: missed ${name}`);
    }
  }
}
await engine.close();

const closeFaces = Object.values(closeUps).reduce((n, c) => n + c.faces, 0);
const closeHits = Object.values(closeUps).reduce((n, c) => n + c.hits, 0);
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString().slice(0, 10),
      loadavg: loadavg().map((x) => round(x, 2)),
      photos: {
        photos: labels.photos.length,
        faces: totals.faces,
        recall: round(totals.hits / totals.faces),
        precision: round((totals.found - totals.falseFaces) / Math.max(1, totals.found)),
        falseFaces: totals.falseFaces,
        msPerPhotoMedian: Math.round(median(times)),
        msPerPhotoMax: Math.round(Math.max(...times)),
        cpuMsPerPhotoMedian: Math.round(median(cpuTimes)),
        cpuMsPerPhotoMax: Math.round(Math.max(...cpuTimes)),
      },
      closeUps: Object.fromEntries(
        Object.entries(closeUps).map(([name, c]) => [name, { faces: c.faces, recall: round(c.hits / c.faces) }]),
      ),
      allFacesRecall: round((totals.hits + closeHits) / (totals.faces + closeFaces)),
      missedOrFalse,
    },
    null,
    2,
  ),
);

// Zip streaming of 1 GiB of files (docs/PRODUCT.md#file-screens): `POST /api/files/archive` for 16 files of 64 MiB,
// against a single-file download of the same bytes through the same server (one 1 GiB file, and the 16 files one after
// another) and nginx serving the same files (the reference), in the same run, rounds interleaved. The server's RSS is
// sampled before, during (peak, every 50 ms) and after each zip: the target is growth < 100 MB. The zip is checked once
// with `unzip -t` (every entry's CRC and size) and its central directory listed.
// Usage: npm run build && node bench/archive.mjs [MiB=1024] [rounds=3]   (needs nginx and unzip; loopback only)
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import {
  drain,
  mib,
  rssOf,
  sampleRss,
  startAtrium,
  startStaticNginx,
  uploadMultipart,
  writeRandomPayload,
} from './files-lib.mjs';

const totalMiB = Number(process.argv[2] ?? 1024);
const ROUNDS = Number(process.argv[3] ?? 3);
const PARTS = 16;
const partSize = (totalMiB / PARTS) * 1024 * 1024;
const total = partSize * PARTS;
const ATRIUM_PORT = 3406;
const NGINX_PORT = 3407;
const work = mkdtempSync(path.join(tmpdir(), 'atrium-bench-archive-'));
chmodSync(work, 0o755);
const www = path.join(work, 'nginx', 'www');
mkdirSync(www, { recursive: true });
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');

const loadAtStart = load();
const partNames = Array.from({ length: PARTS }, (_, i) => `part-${String(i).padStart(2, '0')}.bin`);
for (const name of partNames) writeRandomPayload(path.join(www, name), partSize);
writeRandomPayload(path.join(www, 'all.bin'), total);

const server = await startAtrium({
  port: ATRIUM_PORT,
  dataDir: path.join(work, 'atrium'),
  env: { MAX_UPLOAD_BYTES: String(total * 2), USER_QUOTA_BYTES: String(total * 4), ANALYSIS_ENABLED: 'false' },
});
process.on('exit', () => {
  try {
    process.kill(server.pid);
  } catch {
    // already gone
  }
});
const stopNginx = await startStaticNginx({ dir: path.join(work, 'nginx'), port: NGINX_PORT });
const cookie = server.cookie;

/** @param {string} name */
async function upload(name) {
  const file = path.join(www, name);
  const answer = await uploadMultipart({
    port: ATRIUM_PORT,
    headers: { cookie, accept: 'application/json' },
    query: '?userId=admin',
    name,
    size: statSync(file).size,
    file,
  });
  if (answer.status !== 200) throw new Error(`upload of ${name}: ${answer.status} ${answer.body}`);
  return /** @type {string} */ (JSON.parse(answer.body).id);
}

try {
  const partIds = [];
  for (const name of partNames) partIds.push(await upload(name));
  const singleId = await upload('all.bin');
  const archiveBody = JSON.stringify({ fileIds: partIds, folderIds: [] });
  const archive = (/** @type {((chunk: Buffer) => void) | undefined} */ onData = undefined) =>
    drain({
      port: ATRIUM_PORT,
      method: 'POST',
      path: '/api/files/archive',
      headers: { cookie, 'content-type': 'application/json' },
      body: archiveBody,
      onData,
    });

  // Once: the zip is valid (CRCs and sizes of every entry) and holds the 16 files.
  const zipFile = path.join(work, 'check.zip');
  const out = createWriteStream(zipFile);
  const checked = await archive((chunk) => out.write(chunk));
  await new Promise((resolve) => out.end(resolve));
  if (checked.status !== 200) throw new Error(`archive answered ${checked.status}`);
  if (Number(checked.headers['content-length']) !== checked.bytes)
    throw new Error(`content-length ${checked.headers['content-length']}, got ${checked.bytes} bytes`);
  const test = spawnSync('unzip', ['-t', zipFile], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`unzip -t failed:\n${test.stdout}${test.stderr}`);
  const listed = execFileSync('unzip', ['-Z1', zipFile], { encoding: 'utf8' }).trim().split('\n').sort();
  if (listed.join() !== partNames.join()) throw new Error(`the zip holds ${listed.join(', ')}`);
  const zipBytes = checked.bytes;
  rmSync(zipFile);
  console.log(`zip checked: unzip -t OK, ${listed.length} entries, ${zipBytes} bytes (${zipBytes - total} of framing)`);

  /** @type {{ nginxSingle: number[], nginxParts: number[], atriumSingle: number[], atriumParts: number[], archive: number[] }} */
  const ms = { nginxSingle: [], nginxParts: [], atriumSingle: [], atriumParts: [], archive: [] };
  /** @type {{ before: number, peak: number, after: number }[]} */
  const rss = [];
  const expect = (/** @type {{ status?: number, bytes: number }} */ answer, bytes = total) => {
    if (answer.status !== 200 || answer.bytes !== bytes) throw new Error(`answered ${answer.status}, ${answer.bytes}`);
  };
  for (let round = 0; round < ROUNDS; round++) {
    spawnSync('sync');
    let started = performance.now();
    expect(await drain({ port: NGINX_PORT, path: '/all.bin' }));
    ms.nginxSingle.push(performance.now() - started);
    started = performance.now();
    for (const name of partNames) expect(await drain({ port: NGINX_PORT, path: `/${name}` }), partSize);
    ms.nginxParts.push(performance.now() - started);
    started = performance.now();
    expect(await drain({ port: ATRIUM_PORT, path: `/api/files/download/${singleId}`, headers: { cookie } }));
    ms.atriumSingle.push(performance.now() - started);
    started = performance.now();
    for (const id of partIds)
      expect(await drain({ port: ATRIUM_PORT, path: `/api/files/download/${id}`, headers: { cookie } }), partSize);
    ms.atriumParts.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = rssOf(server.pid);
    const stop = sampleRss(server.pid);
    started = performance.now();
    expect(await archive(), zipBytes);
    ms.archive.push(performance.now() - started);
    const peak = stop();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    rss.push({ before, peak, after: rssOf(server.pid) });
  }

  const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const rate = (/** @type {number[]} */ xs, bytes = total) => (mib(bytes) / (median(xs) / 1000)).toFixed(0);
  const row = (/** @type {string} */ label, /** @type {number[]} */ xs, bytes = total) =>
    `| ${label} | ${(median(xs) / 1000).toFixed(2)} s | ${rate(xs, bytes)} MiB/s |`;
  const growth = rss.map((r) => mib(r.peak - r.before));
  console.log(`\n${mib(total)} MiB in ${PARTS} files, ${ROUNDS} rounds (median)`);
  console.log('| what | time | throughput |\n| --- | --- | --- |');
  console.log(row('nginx, one 1 GiB file', ms.nginxSingle));
  console.log(row(`nginx, the ${PARTS} files one after another`, ms.nginxParts));
  console.log(row('Atrium, one 1 GiB file (`GET /api/files/download/{id}`)', ms.atriumSingle));
  console.log(row(`Atrium, the ${PARTS} files one after another`, ms.atriumParts));
  console.log(row(`Atrium, \`POST /api/files/archive\` of the ${PARTS} files`, ms.archive, zipBytes));
  console.log(
    `\nserver RSS around each zip (before → peak → after, MiB): ${rss
      .map((r) => `${mib(r.before).toFixed(0)} → ${mib(r.peak).toFixed(0)} → ${mib(r.after).toFixed(0)}`)
      .join('; ')}; largest growth ${Math.max(...growth).toFixed(1)} MiB (target < 100 MB)`,
  );
  console.log(`load average at start ${loadAtStart}, at the end ${load()}`);
} finally {
  await stopNginx();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

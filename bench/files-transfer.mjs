// 1 GiB upload and download over loopback: Atrium (multipart upload streamed to the fs blob store,
// the same file as a resumable tus upload, ranged/streamed download) versus nginx from Debian in the same run (WebDAV PUT with
// client_body_in_file_only for upload, sendfile for download), plus Atrium's RSS growth.
// Usage: npm run build && node bench/files-transfer.mjs [sizeMiB=1024] [rounds=3]   (needs: apt-get install -y nginx)
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  drain,
  mib,
  pipeFile,
  rssOf,
  sampleRss,
  send,
  startAtrium,
  startStaticNginx,
  uploadMultipart,
  writeRandomPayload,
} from './files-lib.mjs';

const sizeMiB = Number(process.argv[2] ?? 1024);
const size = sizeMiB * 1024 * 1024;
const ATRIUM_PORT = 3292;
const NGINX_PORT = 3293;
const work = mkdtempSync(path.join(tmpdir(), 'atrium-bench-files-'));
chmodSync(work, 0o777);

// The payload: a file of random bytes on disk, streamed by both clients the same way.
const source = path.join(work, 'payload.bin');
writeRandomPayload(source, size);

/**
 * Writes back every dirty page on the machine (the payload just generated, the file the other
 * server received) before a timed transfer, so each server starts from the same disk state
 * instead of paying for the previous step's write-back. Atrium's own fsync stays in its time.
 */
function settleDisk() {
  spawnSync('sync');
}

async function benchAtrium() {
  const server = await startAtrium({
    port: ATRIUM_PORT,
    dataDir: path.join(work, 'atrium'),
    env: { MAX_UPLOAD_BYTES: String(size * 2), USER_QUOTA_BYTES: String(size * 4) },
  });
  try {
    settleDisk();
    const baseline = rssOf(server.pid);
    let stop = sampleRss(server.pid);
    const up = await uploadMultipart({
      port: ATRIUM_PORT,
      headers: { cookie: server.cookie, accept: 'application/json' },
      query: '?userId=admin',
      name: 'payload.bin',
      size,
      file: source,
    });
    const upPeak = stop();
    if (up.status !== 200) throw new Error(`upload failed: ${up.status} ${up.body}`);
    const { id, size: stored } = JSON.parse(up.body);
    if (stored !== size) throw new Error(`stored ${stored} bytes, expected ${size}`);
    stop = sampleRss(server.pid);
    const down = await drain({
      port: ATRIUM_PORT,
      path: `/api/files/download/${id}`,
      headers: { cookie: server.cookie },
    });
    const downPeak = stop();
    if (down.bytes !== size) throw new Error(`downloaded ${down.bytes} bytes`);
    const removed = await send({
      port: ATRIUM_PORT,
      method: 'DELETE',
      path: `/api/files/user/${id}`,
      headers: { cookie: server.cookie },
      writeBody: (req) => req.end(),
    });
    if (removed.status !== 200 && removed.status !== 204) throw new Error(`delete failed: ${removed.status}`);

    // The same file as the web app sends files from 64 MiB up: a resumable (tus) upload, one PATCH,
    // timed from the creation request to the answer that names the stored file.
    settleDisk();
    stop = sampleRss(server.pid);
    const started = performance.now();
    const created = await send({
      port: ATRIUM_PORT,
      method: 'POST',
      path: '/api/files/tus',
      headers: {
        cookie: server.cookie,
        'tus-resumable': '1.0.0',
        'upload-length': size,
        'upload-metadata': `filename ${Buffer.from('payload.bin').toString('base64')},userId ${Buffer.from('admin').toString('base64')}`,
      },
      writeBody: (req) => req.end(),
    });
    const location = created.headers.location;
    if (created.status !== 201 || !location) throw new Error(`tus creation failed: ${created.status} ${created.body}`);
    const patched = await send({
      port: ATRIUM_PORT,
      method: 'PATCH',
      path: new URL(location, 'http://localhost').pathname,
      headers: {
        cookie: server.cookie,
        'tus-resumable': '1.0.0',
        'upload-offset': 0,
        'content-type': 'application/offset+octet-stream',
        'content-length': size,
      },
      writeBody: (req) => pipeFile(req, source),
    });
    const tus = performance.now() - started;
    const tusPeak = stop();
    const tusId = patched.headers['x-atrium-file-id'];
    if (patched.status !== 204 || !tusId) throw new Error(`tus upload failed: ${patched.status} ${patched.body}`);
    const tusRecord = await send({
      port: ATRIUM_PORT,
      method: 'GET',
      path: `/api/files/${tusId}`,
      headers: { cookie: server.cookie },
      writeBody: (req) => req.end(),
    });
    if (JSON.parse(tusRecord.body).size !== size) throw new Error(`tus stored ${tusRecord.body}`);
    await send({
      port: ATRIUM_PORT,
      method: 'DELETE',
      path: `/api/files/user/${tusId}`,
      headers: { cookie: server.cookie },
      writeBody: (req) => req.end(),
    });
    // Deleting moves a file to the trash, which counts in the quota: empty it, or round 3 would be refused.
    const emptied = await send({
      port: ATRIUM_PORT,
      method: 'DELETE',
      path: '/api/trash',
      headers: { cookie: server.cookie },
      writeBody: (req) => req.end(),
    });
    if (emptied.status !== 200) throw new Error(`emptying the trash failed: ${emptied.status} ${emptied.body}`);
    return { up: up.ms, down: down.ms, tus, baseline, upPeak, downPeak, tusPeak };
  } finally {
    await server.stop();
  }
}

async function benchNginx() {
  const dir = path.join(work, 'nginx');
  for (const sub of ['www/upload', 'body']) mkdirSync(path.join(dir, sub), { recursive: true });
  chmodSync(path.join(dir, 'www/upload'), 0o777);
  chmodSync(path.join(dir, 'body'), 0o777);
  // WebDAV PUT into www/upload, the body written straight to a file.
  const stopNginx = await startStaticNginx({
    dir,
    port: NGINX_PORT,
    http: `client_max_body_size ${size * 2};`,
    server: `location /upload/ {
      client_body_in_file_only on;
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw group:r all:r;
    }`,
  });
  try {
    settleDisk();
    const up = await send({
      port: NGINX_PORT,
      method: 'PUT',
      path: '/upload/payload.bin',
      headers: { 'content-length': size },
      writeBody: (req) => pipeFile(req, source),
    });
    if (up.status !== 201 && up.status !== 204) throw new Error(`nginx upload failed: ${up.status} ${up.body}`);
    const down = await drain({ port: NGINX_PORT, path: '/upload/payload.bin' });
    if (down.bytes !== size) throw new Error(`nginx served ${down.bytes} bytes`);
    return { up: up.ms, down: down.ms };
  } finally {
    await stopNginx();
  }
}

/**
 * The disk's own ceiling for a durable write of the payload: dd copies it to a new file and
 * fdatasyncs it, as Atrium must before it answers (nginx answers before its bytes reach the disk).
 */
function benchDisk() {
  const copy = path.join(work, 'dd.bin');
  settleDisk();
  const started = performance.now();
  const dd = spawnSync('dd', [`if=${source}`, `of=${copy}`, 'bs=1M', 'conv=fdatasync', 'status=none']);
  const ms = performance.now() - started;
  rmSync(copy, { force: true });
  if (dd.status !== 0) throw new Error(`dd failed: ${dd.stderr}`);
  return ms;
}

const rounds = Number(process.argv[3] ?? 3);
/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;
try {
  if (spawnSync('/usr/sbin/nginx', ['-v']).status !== 0) throw new Error('nginx is missing: apt-get install -y nginx');
  const rate = (/** @type {number} */ ms) => `${(mib(size) / (ms / 1000)).toFixed(0)} MiB/s`;
  console.log(`payload: ${sizeMiB} MiB, ${rounds} rounds (the order of the two servers alternates)`);
  /** @type {Record<'up' | 'down' | 'tus' | 'upRatio' | 'downRatio' | 'tusRatio' | 'diskRatio' | 'rss', number[]>} */
  const all = { up: [], down: [], tus: [], upRatio: [], downRatio: [], tusRatio: [], diskRatio: [], rss: [] };
  for (let round = 1; round <= rounds; round += 1) {
    // Alternate which server goes first, so neither always meets a warm or a cold page cache.
    let atrium;
    let nginx;
    if (round % 2 === 1) {
      atrium = await benchAtrium();
      nginx = await benchNginx();
    } else {
      nginx = await benchNginx();
      atrium = await benchAtrium();
    }
    const disk = benchDisk();
    all.diskRatio.push(disk / atrium.up);
    all.up.push(atrium.up);
    all.down.push(atrium.down);
    all.tus.push(atrium.tus);
    all.upRatio.push(nginx.up / atrium.up);
    all.downRatio.push(nginx.down / atrium.down);
    all.tusRatio.push(nginx.up / atrium.tus);
    all.rss.push(...[atrium.upPeak, atrium.downPeak, atrium.tusPeak].map((peak) => peak - atrium.baseline));
    console.log(
      `round ${round}: upload atrium ${rate(atrium.up)} / nginx ${rate(nginx.up)} = ${((nginx.up / atrium.up) * 100).toFixed(0)}%` +
        ` (durable disk write ${rate(disk)}, atrium ${((disk / atrium.up) * 100).toFixed(0)}% of it)` +
        ` | resumable upload ${rate(atrium.tus)} = ${((nginx.up / atrium.tus) * 100).toFixed(0)}% of nginx` +
        ` | download atrium ${rate(atrium.down)} / nginx ${rate(nginx.down)} = ${((nginx.down / atrium.down) * 100).toFixed(0)}%` +
        ` | RSS ${mib(atrium.baseline).toFixed(0)} MiB, +${mib(atrium.upPeak - atrium.baseline).toFixed(0)} up, +${mib(atrium.downPeak - atrium.baseline).toFixed(0)} down, +${mib(atrium.tusPeak - atrium.baseline).toFixed(0)} resumable`,
    );
  }
  console.log(
    `median: upload ${rate(median(all.up))}, ${(median(all.upRatio) * 100).toFixed(0)}% of nginx, ${(median(all.diskRatio) * 100).toFixed(0)}% of a durable disk write | resumable upload ${rate(median(all.tus))}, ${(median(all.tusRatio) * 100).toFixed(0)}% of nginx | download ${rate(median(all.down))}, ${(median(all.downRatio) * 100).toFixed(0)}% of nginx | RSS growth max +${mib(Math.max(...all.rss)).toFixed(0)} MiB`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

// Public-link download of one file versus nginx serving the same bytes, side by side in one run: the file is
// uploaded to Atrium, shared by a public link, and fetched anonymously through /api/public/links/{token}/download
// (the link lookup, the link policy, the download count and the same send-blob code as private downloads); nginx
// (Debian, sendfile) serves a copy of the payload from its root. The target: Atrium at least 0.9x nginx.
// Usage: npm run build && node bench/link-download.mjs [sizeMiB=1024] [rounds=3]   (needs: apt-get install -y nginx)
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drain, mib, send, startAtrium, startStaticNginx, uploadMultipart, writeRandomPayload } from './files-lib.mjs';

const sizeMiB = Number(process.argv[2] ?? 1024);
const rounds = Number(process.argv[3] ?? 3);
const size = sizeMiB * 1024 * 1024;
const ATRIUM_PORT = 3294;
const NGINX_PORT = 3295;
const work = mkdtempSync(path.join(tmpdir(), 'atrium-bench-link-'));
chmodSync(work, 0o777);

const source = path.join(work, 'payload.bin');
writeRandomPayload(source, size);

/** Starts nginx serving the payload with sendfile; returns a stop function. */
async function startNginx() {
  const dir = path.join(work, 'nginx');
  mkdirSync(path.join(dir, 'www'), { recursive: true });
  copyFileSync(source, path.join(dir, 'www', 'payload.bin'));
  return startStaticNginx({ dir, port: NGINX_PORT });
}

/**
 * Uploads the payload and creates a public link to it; returns the link's token.
 * @param {{ cookie: string }} server
 */
async function shareOnAtrium(server) {
  const up = await uploadMultipart({
    port: ATRIUM_PORT,
    headers: { cookie: server.cookie, accept: 'application/json' },
    name: 'payload.bin',
    size,
    file: source,
  });
  if (up.status !== 200) throw new Error(`upload failed: ${up.status} ${up.body}`);
  const { id } = JSON.parse(up.body);
  const created = await send({
    port: ATRIUM_PORT,
    method: 'POST',
    path: '/api/links',
    headers: { cookie: server.cookie, 'content-type': 'application/json' },
    writeBody: (req) => req.end(JSON.stringify({ fileId: id })),
  });
  if (created.status !== 201) throw new Error(`link failed: ${created.status} ${created.body}`);
  return JSON.parse(created.body).token;
}

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;
const rate = (/** @type {number} */ ms) => `${(mib(size) / (ms / 1000)).toFixed(0)} MiB/s`;

const server = await startAtrium({
  port: ATRIUM_PORT,
  dataDir: path.join(work, 'atrium'),
  env: { MAX_UPLOAD_BYTES: String(size * 2), USER_QUOTA_BYTES: String(size * 4) },
});
const stopNginx = await startNginx();
try {
  if (spawnSync('/usr/sbin/nginx', ['-v']).status !== 0) throw new Error('nginx is missing: apt-get install -y nginx');
  const token = await shareOnAtrium(server);
  spawnSync('sync');
  console.log(`payload: ${sizeMiB} MiB, ${rounds} rounds (the order alternates; one warm-up download each first)`);
  const linkPath = `/api/public/links/${token}/download`;
  const fetchLink = async () => {
    const down = await drain({ port: ATRIUM_PORT, path: linkPath });
    if (down.bytes !== size) throw new Error(`link served ${down.bytes} bytes`);
    return down.ms;
  };
  const fetchNginx = async () => {
    const down = await drain({ port: NGINX_PORT, path: '/payload.bin' });
    if (down.bytes !== size) throw new Error(`nginx served ${down.bytes} bytes`);
    return down.ms;
  };
  // Warm-up: both copies in the page cache, so the disk is not what is measured.
  await fetchLink();
  await fetchNginx();
  /** @type {number[]} */ const atriumMs = [];
  /** @type {number[]} */ const nginxMs = [];
  /** @type {number[]} */ const ratios = [];
  for (let round = 1; round <= rounds; round += 1) {
    let a;
    let n;
    if (round % 2 === 1) {
      a = await fetchLink();
      n = await fetchNginx();
    } else {
      n = await fetchNginx();
      a = await fetchLink();
    }
    atriumMs.push(a);
    nginxMs.push(n);
    ratios.push(n / a);
    console.log(`round ${round}: public link ${rate(a)} / nginx ${rate(n)} = ${((n / a) * 100).toFixed(0)}%`);
  }
  console.log(
    `median: public link ${rate(median(atriumMs))}, nginx ${rate(median(nginxMs))}, link = ${(median(ratios) * 100).toFixed(0)}% of nginx (target >= 90%)`,
  );
} finally {
  await stopNginx();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

// A shared folder of 10,000 entries (docs/PRODUCT.md#workspaces-and-folders): the admin fills a folder with 1,000
// subfolders and 9,000 small files through the API, shares it with a second person (viewer), then measures, 300
// sequential requests each, p50/p99 of:
// - that person listing it (GET /api/folders/{id}?limit=50: the first page and a page 150 pages in), next to the owner;
// - the permission check on a download: a 1 KiB file three folders below the shared one, downloaded by its owner
//   (no share lookup), by the recipient (membership + the recursive share lookup over its ancestors), and by nginx
//   serving the same bytes from disk, the floor, in the same run.
// Usage: npm run build && node bench/folder-listing.mjs [entries=10000]   (SQLite; needs: apt-get install -y nginx)
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  drain,
  forEachConcurrently,
  jsonApi,
  percentile,
  startAtrium,
  startStaticNginx,
  uploadMultipart,
} from './files-lib.mjs';

const total = Number(process.argv[2] ?? 10_000);
const folderCount = Math.round(total / 10);
const PORT = 3297;
const NGINX_PORT = 3298;
const RUNS = 300;
const work = mkdtempSync(path.join(tmpdir(), 'atrium-bench-folders-'));
// nginx's workers run as another user: they must be able to read the file it serves.
chmodSync(work, 0o755);
if (spawnSync('/usr/sbin/nginx', ['-v']).status !== 0) throw new Error('nginx is missing: apt-get install -y nginx');
const server = await startAtrium({ port: PORT, dataDir: work });
const admin = { cookie: server.cookie };

const api = jsonApi(PORT, admin);

/** Upload `body` as `name` into `folderId` as the admin; resolves with the file id. */
const upload = async (/** @type {string} */ folderId, /** @type {string} */ name, /** @type {Buffer} */ body) => {
  const answer = await uploadMultipart({
    port: PORT,
    headers: { ...admin, accept: 'application/json' },
    query: `?folderId=${folderId}`,
    name,
    size: body.length,
    bytes: body,
  });
  if (answer.status !== 200) throw new Error(`upload failed: ${answer.status} ${answer.body}`);
  return /** @type {{ id: string }} */ (JSON.parse(answer.body)).id;
};

/** Signs a second person in the way e2e/users.ts does: a user and a session row in the server's SQLite database. */
function signInBob() {
  const db = new Database(path.join(work, 'atrium.db'));
  try {
    db.pragma('busy_timeout = 5000');
    const now = new Date().toISOString();
    const id = randomUUID();
    db.prepare(
      `INSERT INTO users (id, owner_key, name, nickname, email, picture, role, created_at, updated_at)
       VALUES (?, 'bob', 'Bob', 'bob', 'bob@example.test', NULL, 'user', ?, ?)`,
    ).run(id, now, now);
    const token = randomBytes(32).toString('base64url');
    db.prepare(
      `INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at, user_agent, ip)
       VALUES (?, ?, ?, ?, ?, 'bench', '127.0.0.1')`,
    ).run(
      createHash('sha256').update(token).digest('hex'),
      id,
      now,
      now,
      new Date(Date.now() + 3600_000).toISOString(),
    );
    return { cookie: `atrium_session=${token}` };
  } finally {
    db.close();
  }
}

/** @param {() => Promise<unknown>} once */
async function time(once) {
  /** @type {number[]} */
  const samples = [];
  for (let i = 0; i < 20; i += 1) await once(); // warm-up
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await once();
    samples.push(performance.now() - started);
  }
  return samples;
}

/** @param {string} url @param {Record<string, string>} headers */
const get = (url, headers) => async () => {
  const answer = await fetch(`http://127.0.0.1:${PORT}${url}`, { headers });
  await answer.arrayBuffer();
  if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status}`);
};

/** @type {(() => Promise<void>) | undefined} */
let stopNginx;
try {
  const bob = signInBob();
  const team = await api('POST', '/api/folders', { name: 'Team' });
  const fillStarted = performance.now();
  await forEachConcurrently(total, 8, async (index) => {
    if (index < folderCount) await api('POST', '/api/folders', { name: `folder ${index}`, parentId: team.id });
    else await upload(team.id, `note-${index}.txt`, Buffer.from(`file number ${index}\n`));
  });
  console.log(
    `filled a folder with ${folderCount} folders and ${total - folderCount} files in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s`,
  );
  // A small file three folders below the shared one.
  let parent = team.id;
  for (const name of ['a', 'b', 'c']) parent = (await api('POST', '/api/folders', { name, parentId: parent })).id;
  const payload = randomBytes(1024);
  const deepFile = await upload(parent, 'deep.bin', payload);
  await api('PUT', `/api/folders/${team.id}/shares/bob`, { role: 'viewer' });

  // Bob sees the listing through the share; a page deep in it (follow the cursor).
  const first = await api('GET', `/api/folders/${team.id}?limit=50`, undefined, bob);
  if (first.folders.length + first.files.length !== 50) throw new Error('the recipient does not see the shared folder');
  let cursor = first.nextCursor;
  for (let i = 0; i < 150 && cursor; i += 1) {
    cursor = (await api('GET', `/api/folders/${team.id}?limit=50&cursor=${encodeURIComponent(cursor)}`, undefined, bob))
      .nextCursor;
  }
  const deepPage = `/api/folders/${team.id}?limit=50&cursor=${encodeURIComponent(cursor ?? '')}`;

  const dir = path.join(work, 'nginx');
  mkdirSync(path.join(dir, 'www'), { recursive: true });
  writeFileSync(path.join(dir, 'www/deep.bin'), payload);
  stopNginx = await startStaticNginx({ dir, port: NGINX_PORT });

  const rows = [
    ['recipient lists, first page of 50', await time(get(`/api/folders/${team.id}?limit=50`, bob))],
    ['recipient lists, page 151 of 50 (cursor)', await time(get(deepPage, bob))],
    ['owner lists, first page of 50', await time(get(`/api/folders/${team.id}?limit=50`, admin))],
    ['download 1 KiB, owner (no share lookup)', await time(get(`/api/files/download/${deepFile}`, admin))],
    ['download 1 KiB, recipient (share 3 folders up)', await time(get(`/api/files/download/${deepFile}`, bob))],
    [
      'download 1 KiB, nginx (floor)',
      await time(async () => {
        const answer = await drain({ port: NGINX_PORT, path: '/deep.bin' });
        if (answer.bytes !== 1024) throw new Error('nginx served the wrong bytes');
      }),
    ],
  ];
  /** @type {Map<string, number[]>} */
  const byName = new Map(rows.map(([name, samples]) => [String(name), /** @type {number[]} */ (samples)]));
  for (const [name, samples] of byName) {
    console.log(`${name}: p50 ${percentile(samples, 50).toFixed(2)} ms, p99 ${percentile(samples, 99).toFixed(2)} ms`);
  }
  const owner = byName.get('download 1 KiB, owner (no share lookup)') ?? [];
  const recipient = byName.get('download 1 KiB, recipient (share 3 folders up)') ?? [];
  console.log(
    `permission check through the share adds p50 ${(percentile(recipient, 50) - percentile(owner, 50)).toFixed(2)} ms, p99 ${(percentile(recipient, 99) - percentile(owner, 99)).toFixed(2)} ms`,
  );
} finally {
  await stopNginx?.();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

// Trash purge of 10,000 items (docs/PRODUCT.md#trash-and-versions), both ways the product removes trashed files for
// good: 1. "Empty trash" (`DELETE /api/trash`): 10,000 files in the admin's personal trash, one request, timed.
// 2. The `trash.purge` job: 10,000 files trashed 31 days ago (past TRASH_RETENTION_DAYS=30); the job runs on start-up
//    (then daily), so the server is restarted with its lease cleared and the bench watches the trashed rows go.
// Each time 100 files are uploaded and deleted through the API (upload, `DELETE /api/files/user/{id}`: the real path,
// search documents and all), and the rest are written in bulk as those leave them: a `files` row in the trash and its
// blob (1–32 KiB of random bytes) in the fs store. Reported: items/s, that every row and blob is gone, and the
// server's event-loop lag meanwhile (prom-client's p99/max over the phase, and `/healthz` round trips every 20 ms).
// Usage: npm run build && node bench/trash-purge.mjs [items=10000]
//        BENCH_DATABASE_URL=postgres://… node bench/trash-purge.mjs   (PostgreSQL; the database must be empty)
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { multipart, percentile, root, send, startAtrium } from './files-lib.mjs';

const require = createRequire(path.join(root, 'apps/server/package.json'));
const ITEMS = Number(process.argv[2] ?? 10_000);
const THROUGH_API = Math.min(100, ITEMS);
const PORT = 3406;
const base = `http://127.0.0.1:${PORT}`;
const databaseUrl = process.env.BENCH_DATABASE_URL;
const work = mkdtempSync(path.join(tmpdir(), 'atrium-bench-trash-'));
const blobDir = path.join(work, 'blobs', 'files');
const metricsToken = 'bench-metrics-token-0123456789';
const env = {
  METRICS_TOKEN: metricsToken,
  ANALYSIS_ENABLED: 'false',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');

/** The server's database, opened beside it (SQLite in WAL mode, or PostgreSQL); `?` placeholders on both. */
async function openDb() {
  if (databaseUrl) {
    const pg = require('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    return {
      /** @param {string} text @param {unknown[]} [params] @returns {Promise<any[]>} */
      async all(text, params = []) {
        let n = 0;
        return (
          await client.query(
            text.replace(/\?/g, () => `$${++n}`),
            params,
          )
        ).rows;
      },
      close: () => client.end(),
    };
  }
  const Database = require('better-sqlite3');
  const db = new Database(path.join(work, 'atrium.db'));
  db.pragma('busy_timeout = 5000');
  return {
    /** @param {string} text @param {unknown[]} [params] @returns {Promise<any[]>} */
    async all(text, params = []) {
      const statement = db.prepare(text);
      return statement.reader ? statement.all(...params) : (statement.run(...params), []);
    },
    close: async () => db.close(),
  };
}
const db = await openDb();
const trashedCount = async () =>
  Number((await db.all('select count(*) as n from files where trashed_at is not null'))[0].n);
const blobCount = () => (existsSync(blobDir) ? readdirSync(blobDir).length : 0);

/** @param {string} text @param {string} name */
const gauge = (text, name) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
const scrape = async () =>
  (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();

/** Round trips of `/healthz` every 20 ms until the returned function is called; it gives them. */
function pollHealth() {
  /** @type {number[]} */
  const times = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const ok = await fetch(`${base}/healthz`).then(
        () => true,
        () => false,
      );
      if (ok) times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return async () => {
    running = false;
    await done;
    return times;
  };
}

/** `count` files in the admin's personal trash: `THROUGH_API` through the API, the rest in bulk. */
async function fillTrash(/** @type {string} */ cookie, /** @type {string} */ tag) {
  const spaces = /** @type {{ rootFolderId: string }[]} */ (
    await (await fetch(`${base}/api/spaces`, { headers: { cookie } })).json()
  );
  const rootId = spaces[0]?.rootFolderId;
  for (let i = 0; i < THROUGH_API; i++) {
    const bytes = randomBytes(1024 + Math.floor(Math.random() * 31 * 1024));
    const form = multipart(`api-${tag}-${i}.bin`, bytes.length);
    const up = await send({
      port: PORT,
      method: 'POST',
      path: '/api/files/upload?userId=admin',
      headers: {
        cookie,
        accept: 'application/json',
        'content-type': form.contentType,
        'content-length': form.length,
      },
      writeBody: (req) => req.end(Buffer.concat([form.head, bytes, form.tail])),
    });
    if (up.status !== 200) throw new Error(`upload: ${up.status} ${up.body}`);
    const { id } = JSON.parse(up.body);
    const removed = await fetch(`${base}/api/files/user/${id}`, { method: 'DELETE', headers: { cookie } });
    if (!removed.ok) throw new Error(`delete: ${removed.status} ${await removed.text()}`);
  }
  const [sample] = await db.all('select trashed_by, trashed_at from files where trashed_at is not null limit 1');
  mkdirSync(blobDir, { recursive: true });
  const started = Date.now();
  const columns = [
    'id',
    'owner_key',
    'file_name',
    'name_key',
    'size',
    'content_type',
    'sha256',
    'blob_key',
    'upload_date',
    'folder_id',
    'workspace_id',
    'uploaded_by',
    'trashed_at',
    'trashed_by',
    'trash_root_id',
  ];
  const BATCH = databaseUrl ? 500 : 1;
  /** @type {unknown[][]} */
  let rows = [];
  const flush = async () => {
    if (rows.length === 0) return;
    const placeholders = rows.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
    await db.all(`insert into files (${columns.join(', ')}) values ${placeholders}`, rows.flat());
    rows = [];
  };
  if (!databaseUrl) await db.all('begin');
  for (let i = THROUGH_API; i < ITEMS; i++) {
    const id = randomUUID();
    const bytes = randomBytes(1024 + Math.floor(Math.random() * 31 * 1024));
    writeFileSync(path.join(blobDir, id), bytes);
    const name = `bulk-${tag}-${i}.bin`;
    const at = new Date(started - (ITEMS - i) * 1000).toISOString();
    rows.push([
      id,
      'admin',
      name,
      name,
      bytes.length,
      'application/octet-stream',
      createHash('sha256').update(bytes).digest('hex'),
      `files/${id}`,
      at,
      rootId,
      null,
      sample.trashed_by,
      at,
      sample.trashed_by,
      null,
    ]);
    if (rows.length >= BATCH) await flush();
  }
  await flush();
  if (!databaseUrl) await db.all('commit');
  await db.all('analyze');
  const inTrash = await trashedCount();
  if (inTrash !== ITEMS) throw new Error(`${inTrash} files in the trash, expected ${ITEMS}`);
  if (blobCount() !== ITEMS) throw new Error(`${blobCount()} blobs, expected ${ITEMS}`);
}

/** @param {number[]} health @param {string} metrics */
const lagOf = (health, metrics) => ({
  lagP99Ms: gauge(metrics, 'nodejs_eventloop_lag_p99_seconds').toFixed(1),
  lagMaxMs: gauge(metrics, 'nodejs_eventloop_lag_max_seconds').toFixed(1),
  healthz: `${percentile(health, 50).toFixed(1)} / ${percentile(health, 99).toFixed(1)} / ${Math.max(...health).toFixed(1)} ms (${health.length})`,
});

let server = await startAtrium({ port: PORT, dataDir: work, env });
process.on('exit', () => {
  try {
    process.kill(server.pid);
  } catch {
    // already gone
  }
});
/** @type {string[]} */
const lines = [];
try {
  // 1. Empty trash.
  let fillStarted = performance.now();
  await fillTrash(server.cookie, 'a');
  console.log(`trash filled with ${ITEMS} files in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s`);
  const loadBefore = load();
  await scrape();
  let stopHealth = pollHealth();
  const started = performance.now();
  const emptied = await fetch(`${base}/api/trash`, { method: 'DELETE', headers: { cookie: server.cookie } });
  const emptyMs = performance.now() - started;
  const emptyLag = lagOf(await stopHealth(), await scrape());
  const body = /** @type {{ purged: number }} */ (await emptied.json());
  if (emptied.status !== 200 || body.purged !== ITEMS) throw new Error(`empty trash: ${JSON.stringify(body)}`);
  const listed = /** @type {{ items: unknown[] }} */ (
    await (await fetch(`${base}/api/trash`, { headers: { cookie: server.cookie } })).json()
  );
  if ((await trashedCount()) !== 0 || blobCount() !== 0 || listed.items.length !== 0)
    throw new Error(`left after emptying: ${await trashedCount()} rows, ${blobCount()} blobs`);
  lines.push(
    `| \`DELETE /api/trash\` (empty trash) | ${ITEMS} | ${(emptyMs / 1000).toFixed(2)} s | ${((ITEMS / emptyMs) * 1000).toFixed(0)} | ${emptyLag.lagP99Ms} / ${emptyLag.lagMaxMs} ms | ${emptyLag.healthz} | ${loadBefore} → ${load()} |`,
  );
  console.log(lines.at(-1));

  // 2. The purge job, on a restart with its lease cleared.
  fillStarted = performance.now();
  await fillTrash(server.cookie, 'b');
  const expired = new Date(Date.now() - 31 * 86_400_000).toISOString();
  await db.all('update files set trashed_at = ? where trashed_at is not null', [expired]);
  console.log(`trash filled again in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s, dated ${expired}`);
  await server.stop();
  await db.all(`delete from job_leases where name = 'trash.purge'`);
  const loadBeforeJob = load();
  const starting = startAtrium({ port: PORT, dataDir: work, env });
  stopHealth = pollHealth();
  let first = { at: 0, count: ITEMS };
  let doneAt = 0;
  for (;;) {
    const count = await trashedCount();
    const now = performance.now();
    if (first.at === 0 && count < ITEMS) {
      first = { at: now, count };
      // Reading the gauges resets prom-client's lag histogram: from here they cover the job alone.
      await scrape().catch(() => '');
    }
    if (count === 0) {
      doneAt = now;
      break;
    }
    if (first.at !== 0 && now - first.at > 600_000) throw new Error(`the job left ${count} items after 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  server = await starting;
  const jobLag = lagOf(await stopHealth(), await scrape());
  const jobMs = doneAt - first.at;
  // Blobs go just after their row; give the last ones a moment.
  for (let i = 0; i < 50 && blobCount() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  if (blobCount() !== 0) throw new Error(`${blobCount()} blobs left after the purge job`);
  lines.push(
    `| \`trash.purge\` job (items past TRASH_RETENTION_DAYS) | ${first.count} (of ${ITEMS}; the first ${ITEMS - first.count} went before the first look) | ${(jobMs / 1000).toFixed(2)} s | ${((first.count / jobMs) * 1000).toFixed(0)} | ${jobLag.lagP99Ms} / ${jobLag.lagMaxMs} ms | ${jobLag.healthz} | ${loadBeforeJob} → ${load()} |`,
  );
  console.log(lines.at(-1));
  console.log(
    `\n${databaseUrl ? 'PostgreSQL' : 'SQLite'}, fs blob store; every row and blob gone after each\n` +
      '| path | items timed | time | items/s | event-loop lag p99 / max | `/healthz` p50 / p99 / max (samples) | load average before → after |\n| --- | --- | --- | --- | --- | --- | --- |\n' +
      lines.join('\n'),
  );
} finally {
  await db.close();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

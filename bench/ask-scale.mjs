// "Ask your files" at scale (docs/PRODUCT.md#ask-your-files): POST /api/ask latency with 100,000 analysed files.
// The server starts on an empty data folder; then 100,000 file rows (and 1,100 folders) are written straight into
// its database as uploads leave them (the search triggers index each one), the same spread as bench/search.mjs: 60%
// in the admin's personal space across 500 folders, 20% in a workspace the admin is a member of, 20% in another
// person's personal space the admin must never see but for one folder of it shared with the admin — so the
// visibility condition runs over every passage. Each file gets 1–5 passages (about 3 on average) as `passages.ts`
// leaves them: 100–250 words of real text, a window at a random place of one of Debian's man pages (rendered once with
// `man -l`, sections 1 and 8), so the vocabulary and its frequencies are real. They are written in bulk the way the
// repository writes them (SQLite: `passages`, whose trigger fills `passages_fts`; PostgreSQL: `text_tsv` from
// `atrium_search_words`, and the term statistics of migration 0042 kept by its trigger).
// The questions: the rendered pages' one-line NAME descriptions (as bench/ask-eval.mjs makes them), a few hundred,
// each asked once through POST /api/ask (extractive, no model), sequential, after 20 warm-up requests, also with
// `workspaceId` (the workspace's 20%). The per-person limit is reset in the database every 20 requests.
// Usage: npm run build && node bench/ask-scale.mjs [files=100000] [questions=300]   (ASK_SCALE_PAGES=200 pages)
//        BENCH_DATABASE_URL=postgres://… node bench/ask-scale.mjs   (PostgreSQL; the database must be empty)
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { jsonApi, percentile, root, round, startAtrium } from './files-lib.mjs';

const require = createRequire(path.join(root, 'apps/server/package.json'));
const total = Number(process.argv[2] ?? 100_000);
const wantedQuestions = Number(process.argv[3] ?? 300);
const PAGES = Number(process.env.ASK_SCALE_PAGES ?? 200);
const PORT = 3319;
const WARM_UP = 20;
const databaseUrl = process.env.BENCH_DATABASE_URL;
const work = mkdtempSync(path.join(tmpdir(), 'atrium-bench-ask-scale-'));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

let seed = 7;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
/** @template T @param {T[]} list @returns {T} */
const pick = (list) => /** @type {T} */ (list[Math.floor(random() * list.length)]);
const words = (/** @type {string} */ text) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

// ---- The text: man pages, rendered once ----
const google = new Set(
  spawnSync('dpkg', ['-L', 'google-cloud-cli'], { encoding: 'utf8' }).stdout?.split('\n').filter(Boolean) ?? [],
);
const candidates = ['man1', 'man8']
  .flatMap((section) =>
    readdirSync(`/usr/share/man/${section}`)
      .filter((name) => name.endsWith('.gz'))
      .map((name) => path.join('/usr/share/man', section, name)),
  )
  .filter((file) => !google.has(file) && !path.basename(file).startsWith('gcloud'))
  .sort();
for (let i = candidates.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [candidates[i], candidates[j]] = [/** @type {string} */ (candidates[j]), /** @type {string} */ (candidates[i])];
}
/** A page rendered as plain text, or null. @param {string} file */
function render(file) {
  const raw = zlib.gunzipSync(readFileSync(file)).toString('utf8');
  if (/^\.so\s/m.test(raw.slice(0, 200))) return null;
  const out = spawnSync('man', ['-l', file], {
    env: { ...process.env, MANWIDTH: '90', MANPAGER: 'cat', PAGER: 'cat', LANG: 'C.UTF-8', MAN_KEEP_FORMATTING: '' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  // eslint-disable-next-line no-control-regex
  return out.status === 0 && out.stdout ? out.stdout.replace(/.\x08/g, '') : null;
}
/** The NAME line's description without the command's own names (bench/ask-eval.mjs), or null. @param {string} text */
function questionOf(text) {
  const match = /^NAME\n([\s\S]*?)\n\s*\n/m.exec(text);
  if (!match?.[1]) return null;
  const parts = /^(.+?)\s+[-‐–—]+\s+(.+)$/u.exec(match[1].replace(/\s+/g, ' ').trim());
  if (!parts?.[1] || !parts[2]) return null;
  const names = new Set(parts[1].split(/[,\s]+/).flatMap(words));
  const question = parts[2]
    .split(/\s+/)
    .filter((word) => !words(word).some((w) => names.has(w)))
    .join(' ')
    .replace(/^[\s,:;.-]+|[\s,:;]+$/g, '');
  return words(question).length >= 3 ? question : null;
}
/** @type {string[][]} each page's text as words (as written, with punctuation) */
const streams = [];
/** @type {string[]} */
const questions = [];
const renderStarted = Date.now();
// Rendering is slow on a busy machine: the rendered pages are kept between runs (ASK_SCALE_CACHE, a JSON file).
const cacheFile = process.env.ASK_SCALE_CACHE;
/** @type {Record<string, string | null>} */
const cache = cacheFile && existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, 'utf8')) : {};
for (const file of candidates) {
  if (streams.length >= PAGES) break;
  const text = file in cache ? cache[file] : (cache[file] = render(file));
  if (!text) continue;
  const stream = text.split(/\s+/).filter(Boolean);
  if (stream.length < 120) continue;
  streams.push(stream);
  const question = questionOf(text);
  if (question) questions.push(question);
}
if (cacheFile) writeFileSync(cacheFile, JSON.stringify(cache));
console.log(
  `${streams.length} man pages rendered in ${round((Date.now() - renderStarted) / 1000, 1)} s, ${questions.length} questions`,
);
/** A passage: 100–250 words at a random place of a random page. */
function passageText() {
  const stream = pick(streams);
  const length = Math.min(stream.length, 100 + Math.floor(random() * 151));
  const at = Math.floor(random() * (stream.length - length + 1));
  return stream.slice(at, at + length).join(' ');
}

// ---- The server and the rows ----
const server = await startAtrium({
  port: PORT,
  dataDir: work,
  env: databaseUrl ? { DATABASE_URL: databaseUrl } : {},
});
process.on('exit', () => {
  try {
    process.kill(server.pid);
  } catch {
    // already gone
  }
  rmSync(work, { recursive: true, force: true });
});
const headers = { cookie: server.cookie };
const api = jsonApi(PORT, headers);
const spaces = await api('GET', '/api/spaces');
const personalRoot = spaces[0].rootFolderId;
const workspace = await api('POST', '/api/workspaces', { name: 'Bench team' });
const me = await api('GET', '/api/me');

const now = Date.now();
const iso = (/** @type {number} */ ms) => new Date(ms).toISOString();
/** @type {Record<string, unknown>[]} */
const folders = [];
/** @type {Record<string, unknown>[]} */
const files = [];
const strangerRootId = randomUUID();
folders.push({
  id: strangerRootId,
  workspace_id: null,
  owner_key: 'stranger',
  parent_id: null,
  name: 'stranger',
  name_key: 'stranger',
  created_by: null,
  created_at: iso(now),
  updated_at: iso(now),
});
/**
 * @param {{ workspaceId: string | null, ownerKey: string | null, fileOwner: string, rootId: string }} space
 * @param {number} folderCount @param {number} fileCount
 */
function fill(space, folderCount, fileCount) {
  const ids = [];
  for (let i = 0; i < folderCount; i++) {
    const id = randomUUID();
    ids.push(id);
    folders.push({
      id,
      workspace_id: space.workspaceId,
      owner_key: space.ownerKey,
      parent_id: space.rootId,
      name: `folder ${i}`,
      name_key: `folder ${i}`,
      created_by: null,
      created_at: iso(now - i * 60_000),
      updated_at: iso(now - i * 60_000),
    });
  }
  for (let i = 0; i < fileCount; i++) {
    const id = randomUUID();
    const name = `notes-${i}.txt`;
    files.push({
      id,
      owner_key: space.fileOwner,
      file_name: name,
      name_key: name,
      size: 1000 + Math.floor(random() * 1e5),
      content_type: 'text/plain',
      sha256: '0'.repeat(64),
      blob_key: `files/${id}`,
      upload_date: iso(now - Math.floor(random() * 365 * 86_400_000)),
      folder_id: pick(ids),
      workspace_id: space.workspaceId,
      uploaded_by: null,
    });
  }
  return ids;
}
fill({ workspaceId: null, ownerKey: 'admin', fileOwner: 'admin', rootId: personalRoot }, 500, total * 0.6);
fill(
  { workspaceId: workspace.id, ownerKey: null, fileOwner: 'admin', rootId: workspace.rootFolderId },
  300,
  total * 0.2,
);
const strangerFolders = fill(
  { workspaceId: null, ownerKey: 'stranger', fileOwner: 'stranger', rootId: strangerRootId },
  300,
  total * 0.2,
);
/** @type {[string, Record<string, unknown>[]][]} */
const tables = [
  ['folders', folders],
  ['files', files],
  [
    'shares',
    [
      {
        id: randomUUID(),
        file_id: null,
        folder_id: strangerFolders[0],
        grantee_user_id: me.id,
        grantee_workspace_id: null,
        role: 'viewer',
        created_by: null,
        created_at: iso(now),
      },
    ],
  ],
];
/** Each file's passages, 1–5. @returns {Generator<[string, number, string]>} */
function* passagesOf(/** @type {Record<string, unknown>[]} */ batch) {
  for (const file of batch) {
    const count = 1 + Math.floor(random() * 5);
    for (let ordinal = 0; ordinal < count; ordinal++) yield [String(file.id), ordinal, passageText()];
  }
}

const insertStarted = performance.now();
let passages = 0;
/** @type {(statement: string) => Promise<unknown[]>} */
let execute;
if (databaseUrl) {
  const pg = require('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('begin');
  for (const [table, rows] of tables) {
    const columns = Object.keys(rows[0] ?? {});
    for (let at = 0; at < rows.length; at += 1000) {
      const batch = rows.slice(at, at + 1000);
      const values = batch.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
      await client.query(
        `insert into ${table} (${columns.join(', ')}) values ${values.join(', ')}`,
        batch.flatMap((row) => columns.map((column) => row[column])),
      );
    }
  }
  await client.query('commit');
  for (let at = 0; at < files.length; at += 1000) {
    const rows = [...passagesOf(files.slice(at, at + 1000))];
    passages += rows.length;
    await client.query(
      `insert into passages (file_id, ordinal, text, text_tsv)
       select v.file_id, v.ordinal, v.text, atrium_search_words(v.text)
       from unnest($1::text[], $2::int[], $3::text[]) as v(file_id, ordinal, text)`,
      [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])],
    );
    if (at % 20_000 === 0) console.log(`  ${at + 1000} files, ${passages} passages, load ${load()}`);
  }
  await client.query('analyze');
  await client.end();
  execute = async (statement) => {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    const result = await c.query(statement);
    await c.end();
    return result.rows;
  };
} else {
  const Database = require('better-sqlite3');
  const db = new Database(path.join(work, 'atrium.db'));
  db.pragma('busy_timeout = 5000');
  for (const [table, rows] of tables) {
    const columns = Object.keys(rows[0] ?? {});
    const insert = db.prepare(
      `insert into ${table} (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
    );
    db.transaction(() => rows.forEach((row) => insert.run(row)))();
  }
  const insert = db.prepare('insert into passages (file_id, ordinal, text) values (?, ?, ?)');
  for (let at = 0; at < files.length; at += 5000) {
    db.transaction(() => {
      for (const row of passagesOf(files.slice(at, at + 5000))) {
        insert.run(...row);
        passages += 1;
      }
    })();
    if (at % 20_000 === 0) console.log(`  ${at + 5000} files, ${passages} passages, load ${load()}`);
  }
  db.exec(`insert into passages_fts (passages_fts) values ('optimize')`);
  db.exec('analyze');
  db.close();
  execute = async (statement) => {
    const c = new Database(path.join(work, 'atrium.db'));
    c.pragma('busy_timeout = 5000');
    const rows = statement.startsWith('select') ? c.prepare(statement).all() : (c.exec(statement), []);
    c.close();
    return rows;
  };
}
const insertSeconds = (performance.now() - insertStarted) / 1000;
console.log(`${files.length} files, ${passages} passages written and indexed in ${round(insertSeconds, 1)} s`);

// ---- POST /api/ask ----
const asked = questions.slice(0, wantedQuestions);
/** @param {string | undefined} workspaceId */
async function measure(workspaceId) {
  /** @type {number[]} */
  const times = [];
  let answered = 0;
  const list = [...asked.slice(0, WARM_UP), ...asked];
  for (const [i, question] of list.entries()) {
    if (i % 20 === 0) await execute("delete from rate_limits where key like 'ask:%'");
    const started = performance.now();
    const body = workspaceId ? { question, workspaceId } : { question };
    // The first request after the long write may meet a kept-alive socket the server closed meanwhile.
    const answer = await api('POST', '/api/ask', body).catch(() => api('POST', '/api/ask', body));
    const ms = performance.now() - started;
    if (i >= WARM_UP) {
      times.push(ms);
      if (answer.citations.length > 0) answered += 1;
    }
  }
  return (
    `| ${databaseUrl ? 'PostgreSQL' : 'SQLite'} | ${workspaceId ? 'one workspace (`workspaceId`)' : 'all readable'} | ` +
    `${times.length} | ${answered} | ${round(percentile(times, 50), 1)} ms | ${round(percentile(times, 95), 1)} ms | ` +
    `${round(Math.max(...times), 1)} ms | ${load()} |`
  );
}
console.log(`\n${new Date().toISOString()}: ${files.length} files, ${passages} passages`);
console.log('| engine | scope | questions | with citations | p50 | p95 | max | load average |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
console.log(await measure(undefined));
console.log(await measure(workspace.id));
await server.stop();
process.exit(0);

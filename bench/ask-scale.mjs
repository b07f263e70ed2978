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
//        ASK_SCALE_DATA=/some/dir …   keeps the data folder (and the database) and measures again without filling
//        when it was filled before, to compare changes of the server on the same rows
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { insertRowsPostgres, insertRowsSqlite, spreadRows } from './spread.mjs';
import { jsonApi, percentile, root, round, startAtrium } from './files-lib.mjs';
import { manPages, nameLine, renderManPage, seededRandom } from './man-pages.mjs';

const require = createRequire(path.join(root, 'apps/server/package.json'));
/** The analysis version stored files are analysed with (a file of another version is analysed again). */
const analysisVersion = /ANALYSIS_VERSION = '([^']+)'/.exec(
  readFileSync(path.join(root, 'apps/server/src/modules/analysis/analysis.service.ts'), 'utf8'),
)?.[1];
const total = Number(process.argv[2] ?? 100_000);
const wantedQuestions = Number(process.argv[3] ?? 300);
const PAGES = Number(process.env.ASK_SCALE_PAGES ?? 200);
const PORT = 3319;
const WARM_UP = 20;
const databaseUrl = process.env.BENCH_DATABASE_URL;
const keptData = process.env.ASK_SCALE_DATA;
const work = keptData ?? mkdtempSync(path.join(tmpdir(), 'atrium-bench-ask-scale-'));
const filledMarker = path.join(work, 'ask-scale-filled.json');
/** @type {{ workspaceId: string, files: number, passages: number } | undefined} */
const filled = existsSync(filledMarker) ? JSON.parse(readFileSync(filledMarker, 'utf8')) : undefined;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const random = seededRandom(7);
/** @template T @param {T[]} list @returns {T} */
const pick = (list) => /** @type {T} */ (list[Math.floor(random() * list.length)]);
// ---- The text: man pages, rendered once ----
const candidates = manPages(random);
const render = renderManPage;
const questionOf = (/** @type {string} */ text) => nameLine(text)?.question ?? null;
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
  if (!keptData) rmSync(work, { recursive: true, force: true });
});
const headers = { cookie: server.cookie };
const api = jsonApi(PORT, headers);
const spaces = await api('GET', '/api/spaces');
const personalRoot = spaces[0].rootFolderId;
const workspace = filled ? { id: filled.workspaceId } : await api('POST', '/api/workspaces', { name: 'Bench team' });
const me = await api('GET', '/api/me');

/** @type {(statement: string) => Promise<unknown[]>} */
const execute = databaseUrl
  ? async (statement) => {
      const pg = require('pg');
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      const result = await c.query(statement);
      await c.end();
      return result.rows;
    }
  : async (statement) => {
      const Database = require('better-sqlite3');
      const c = new Database(path.join(work, 'atrium.db'));
      c.pragma('busy_timeout = 5000');
      const rows = statement.startsWith('select') ? c.prepare(statement).all() : (c.exec(statement), []);
      c.close();
      return rows;
    };

/** Writes the rows (once per kept data folder). */
async function fillAll() {
  const { folders, files, shares, now, iso } = spreadRows({
    total,
    random,
    personalRoot,
    workspace,
    adminId: me.id,
    folderName: (i) => `folder ${i}`,
    file: (i) => ({ name: `notes-${i}.txt`, contentType: 'text/plain', size: 1000 + Math.floor(random() * 1e5) }),
  });
  /** @type {[string, Record<string, unknown>[]][]} */
  const tables = [
    ['folders', folders],
    ['files', files],
    ['shares', shares],
    // Analysed: without their insights the instance would spend the run analysing 100,000 files whose bytes are
    // not there, and every request would wait behind that.
    [
      'file_insights',
      files.map((file) => ({
        file_id: file.id,
        status: 'done',
        content_sha: file.sha256,
        engine: 'text',
        model_version: analysisVersion,
        analysed_at: iso(now),
        updated_at: iso(now),
      })),
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
  if (databaseUrl) {
    const pg = require('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await insertRowsPostgres(client, tables);
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
  } else {
    const db = insertRowsSqlite(path.join(work, 'atrium.db'), tables);
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
  }
  const insertSeconds = (performance.now() - insertStarted) / 1000;
  console.log(`${files.length} files, ${passages} passages written and indexed in ${round(insertSeconds, 1)} s`);
  writeFileSync(filledMarker, JSON.stringify({ workspaceId: workspace.id, files: files.length, passages }));
  return { files: files.length, passages };
}
const { files: fileCount, passages } = filled ?? (await fillAll());

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
console.log(`\n${new Date().toISOString()}: ${fileCount} files, ${passages} passages`);
console.log('| engine | scope | questions | with citations | p50 | p95 | max | load average |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
console.log(await measure(undefined));
console.log(await measure(workspace.id));
await server.stop();
process.exit(0);

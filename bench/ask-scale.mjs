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
//        ASK_SCALE_EMBEDDINGS=1 …   dense retrieval too: an OpenAI-compatible embeddings fake (bench/embeddings-fake.mjs,
//        a hashed bag of words, 384 dimensions) on 127.0.0.1:3329 is the server's AI_EMBEDDINGS_BASE_URL; every passage
//        is written with its vector (as the server stores them, labelled as it labels them), the server is restarted
//        so that its jobs run, and the measurement waits for its vector index (ASK_SCALE_INDEX_WAIT=600 seconds at
//        most); the questions are embedded by the fake. A kept data folder is filled for one mode only.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { insertRowsPostgres, insertRowsSqlite, spreadRows } from './spread.mjs';
import { embedText, startEmbeddingsFake } from './embeddings-fake.mjs';
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
/** @type {{ workspaceId: string, files: number, passages: number, embeddings?: boolean } | undefined} */
const filled = existsSync(filledMarker) ? JSON.parse(readFileSync(filledMarker, 'utf8')) : undefined;
// Dense retrieval (ASK_SCALE_EMBEDDINGS=1): the fake on a fixed port, so that the label of the vectors a kept data
// folder holds (`${model} (${host})`, as createOpenAiEmbedder names them) is the same in every run.
const embeddings = process.env.ASK_SCALE_EMBEDDINGS === '1';
const EMBEDDINGS_PORT = 3329;
const EMBEDDINGS_MODEL = 'bench-hash-384';
const DIMENSIONS = 384;
const INDEX_WAIT = Number(process.env.ASK_SCALE_INDEX_WAIT ?? 600);
if (filled && Boolean(filled.embeddings) !== embeddings) {
  console.error(
    `${work} was filled ${filled.embeddings ? 'with' : 'without'} embeddings: run it ` +
      `${filled.embeddings ? 'with' : 'without'} ASK_SCALE_EMBEDDINGS=1, or fill another data folder.`,
  );
  process.exit(1);
}
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
const fake = embeddings ? await startEmbeddingsFake({ port: EMBEDDINGS_PORT, dimensions: DIMENSIONS }) : undefined;
const vectorLabel = fake ? `${EMBEDDINGS_MODEL} (${new URL(fake.baseUrl).host})` : '';
/** @type {Record<string, string>} */
const serverEnv = {
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  ...(fake
    ? {
        AI_EMBEDDINGS_BASE_URL: fake.baseUrl,
        AI_EMBEDDINGS_MODEL: EMBEDDINGS_MODEL,
        AI_EMBEDDINGS_DIMENSIONS: String(DIMENSIONS),
      }
    : {}),
};
let server = await startAtrium({ port: PORT, dataDir: work, env: serverEnv });
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
  /** A passage's vector as the server stores it (its Float32Array's bytes, little-endian here). @param {string} text */
  const vectorBytes = (text) => {
    const vector = embedText(text, DIMENSIONS);
    return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  };

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
      if (embeddings)
        await client.query(
          `with written as (
             insert into passages (file_id, ordinal, text, text_tsv)
             select v.file_id, v.ordinal, v.text, atrium_search_words(v.text)
             from unnest($1::text[], $2::int[], $3::text[]) as v(file_id, ordinal, text)
             returning passage_id, file_id, ordinal)
           insert into passage_vectors (passage_id, label, vector)
           select w.passage_id, $5, v.vector from written w
           join unnest($1::text[], $2::int[], $4::bytea[]) as v(file_id, ordinal, vector)
             on v.file_id = w.file_id and v.ordinal = w.ordinal`,
          [
            rows.map((r) => r[0]),
            rows.map((r) => r[1]),
            rows.map((r) => r[2]),
            rows.map((r) => vectorBytes(r[2])),
            vectorLabel,
          ],
        );
      else
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
    const insertVector = db.prepare('insert into passage_vectors (passage_id, label, vector) values (?, ?, ?)');
    for (let at = 0; at < files.length; at += 5000) {
      db.transaction(() => {
        for (const row of passagesOf(files.slice(at, at + 5000))) {
          const { lastInsertRowid } = insert.run(...row);
          if (embeddings) insertVector.run(lastInsertRowid, vectorLabel, vectorBytes(row[2]));
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
  console.log(
    `${files.length} files, ${passages} passages written and indexed${embeddings ? ' (with vectors)' : ''} ` +
      `in ${round(insertSeconds, 1)} s`,
  );
  writeFileSync(
    filledMarker,
    JSON.stringify({ workspaceId: workspace.id, files: files.length, passages, ...(embeddings ? { embeddings } : {}) }),
  );
  return { files: files.length, passages };
}
const { files: fileCount, passages } = filled ?? (await fillAll());

// ---- Dense retrieval: the server's jobs at start, then its vector index ----
/** The first row's `n` of a count. @param {string} statement */
const count = async (statement) => Number(/** @type {{ n?: unknown }[]} */ (await execute(statement))[0]?.n ?? 0);
/** Whether the server keeps a vector index (the table `vector_cells`). */
async function hasVectorIndex() {
  const table = databaseUrl
    ? `select count(*) as n from information_schema.tables
       where table_schema = current_schema() and table_name = 'vector_cells'`
    : `select count(*) as n from sqlite_master where type = 'table' and name = 'vector_cells'`;
  return (await count(table)) > 0;
}
/** How many vectors of one embedder the server indexes from (`INDEXED_FROM`, vector-cells.ts), when its source says. */
const indexedFromFile = path.join(root, 'apps/server/src/modules/ask/vector-cells.ts');
const indexedFrom = Number(
  /INDEXED_FROM = ([\d_]+)/
    .exec(existsSync(indexedFromFile) ? readFileSync(indexedFromFile, 'utf8') : '')?.[1]
    ?.replaceAll('_', '') ?? Number.NaN,
);
/**
 * Waits (every 2 s, ASK_SCALE_INDEX_WAIT at most) until the server's vector index holds every passage of
 * `vectorLabel`: it has cells for the label and no such passage is outside them.
 */
async function waitForVectorIndex() {
  if (!(await hasVectorIndex())) {
    console.log('no vector index in this server: measured without one');
    return;
  }
  const label = vectorLabel.replaceAll("'", "''");
  const vectors = await count(`select count(*) as n from passage_vectors where label = '${label}'`);
  // Its cells are written once a training (at start) is done. Below the server's threshold there will be none; when
  // the threshold is not known, a few polls for them.
  const expected = Number.isNaN(indexedFrom) ? undefined : vectors >= indexedFrom;
  const CELLS_GRACE_SECONDS = 10;
  const started = performance.now();
  const seconds = () => round((performance.now() - started) / 1000, 1);
  for (;;) {
    const cells = await count(`select count(*) as n from vector_cells where label = '${label}'`);
    if (cells === 0 && (expected === false || (expected === undefined && seconds() >= CELLS_GRACE_SECONDS))) {
      const why = expected === false ? `below the server's ${indexedFrom}` : `none after ${seconds()} s`;
      console.log(`no vector index for ${vectors} vectors of ${vectorLabel} (${why}): measured without one`);
      return;
    }
    const pending =
      cells > 0
        ? await count(`select count(*) as n from passage_vectors where label = '${label}' and cell is null`)
        : vectors;
    if (cells > 0 && pending === 0) {
      console.log(`vector index ready in ${seconds()} s (${vectors} vectors in ${cells} cells)`);
      return;
    }
    if (seconds() >= INDEX_WAIT) {
      console.log(
        `vector index not ready after ${seconds()} s (${cells} cells, ${pending} of ${vectors} vectors outside them): ` +
          'measured without a complete index',
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
if (fake) {
  // Restarted, so that its jobs run at start on the rows written (the embeddings backfill finds every vector there
  // and trains the vector index). Its lease is cleared first: the instance stopped took it at its own start (for 90 %
  // of 6 hours), and the restarted one, another holder, would not run the job until then.
  const restarted = performance.now();
  await server.stop();
  await execute("delete from job_leases where name like 'ask.%'");
  server = await startAtrium({ port: PORT, dataDir: work, env: serverEnv });
  headers.cookie = server.cookie;
  console.log(`server restarted in ${round((performance.now() - restarted) / 1000, 1)} s`);
  await waitForVectorIndex();
  console.log(`embeddings fake: ${fake.requests} requests (${fake.texts} texts) before measuring`);
}
const requestsBefore = fake?.requests ?? 0;
const textsBefore = fake?.texts ?? 0;

// ---- POST /api/ask ----
const asked = questions.slice(0, wantedQuestions);
/** @param {string | undefined} workspaceId */
async function measure(workspaceId) {
  /** @type {number[]} */
  const times = [];
  let answered = 0;
  /** @param {string} question @param {number} i */
  const ask = async (question, i) => {
    if (i % 20 === 0) await execute("delete from rate_limits where key like 'ask:%'");
    const body = workspaceId ? { question, workspaceId } : { question };
    // The first request after the long write may meet a kept-alive socket the server closed meanwhile.
    return api('POST', '/api/ask', body).catch(() => api('POST', '/api/ask', body));
  };
  // Warm-up: 20 questions; with vectors also 15 s at least, while the server loads them into memory (in the
  // background, after training the index; until then a question reads the nearest cells from the database).
  const warmUntil = performance.now() + (fake ? 15_000 : 0);
  for (let i = 0; i < WARM_UP || performance.now() < warmUntil; i += 1) await ask(asked[i % asked.length] ?? '', i);
  for (const [i, question] of asked.entries()) {
    const started = performance.now();
    const answer = await ask(question, i);
    times.push(performance.now() - started);
    if (answer.citations.length > 0) answered += 1;
  }
  return (
    `| ${databaseUrl ? 'PostgreSQL' : 'SQLite'}${fake ? ' + vectors' : ''} | ` +
    `${workspaceId ? 'one workspace (`workspaceId`)' : 'all readable'} | ` +
    `${times.length} | ${answered} | ${round(percentile(times, 50), 1)} ms | ${round(percentile(times, 95), 1)} ms | ` +
    `${round(Math.max(...times), 1)} ms | ${load()} |`
  );
}
console.log(`\n${new Date().toISOString()}: ${fileCount} files, ${passages} passages`);
console.log('| engine | scope | questions | with citations | p50 | p95 | max | load average |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
console.log(await measure(undefined));
console.log(await measure(workspace.id));
if (fake) {
  console.log(
    `\nembeddings fake: ${fake.requests - requestsBefore} requests (${fake.texts - textsBefore} texts) answered ` +
      `during the measurement (${2 * (WARM_UP + asked.length)} questions asked)`,
  );
  await fake.close();
}
await server.stop();
process.exit(0);

// "Ask your files" (docs/PRODUCT.md#ask-your-files): retrieval quality and latency on text the team did not write.
// The evaluation set: Debian's man pages (/usr/share/man, sections 1 and 8), drawn with a fixed seed; each page is
// rendered to text with `man -l` and uploaded as `<name>.<section>.txt`; its question is the one-line description
// of its NAME section without the command's own names ("copy files and directories" → cp.1.txt), so the answer
// must be found by meaning, not by name. Pages whose question is shorter than 3 words or shared by another page are
// left out (their answer is ambiguous). The server analyses each upload and cuts it into passages (`file.analysed`).
// Then, for every question, the rank of its page among the files found by:
//   (a) plain search: GET /api/search?q=<question>, the file ranking (every word must match, as the search box does);
//   (b) passages + BM25: the ask module's `retrieve` with query expansion off (bench/ask-retrieval.ts: the public
//       API has no switch, so that script runs the module's code against the same database);
//   (c) + query expansion (WordNet synonyms): the same with expansion on — what POST /api/ask uses here;
//   (d) + dense vectors: not measured: no embeddings provider is reachable on this machine.
// Reported: recall@1, recall@5 and MRR (over the first 10 files). Then the latency of POST /api/ask (extractive,
// no model configured) for every question, sequential, after 20 warm-up requests; the per-person limit of
// ASK_PER_MINUTE is reset in the database between requests (the bench measures the work, not the limiter).
// Usage: npm run build && node bench/ask-eval.mjs [pages=400]
//        BENCH_DATABASE_URL=postgres://… node bench/ask-eval.mjs   (PostgreSQL; the database must be empty)
//        ASK_EVAL_DATA=/some/dir …   keeps the data folder (and the database) and, when it was filled before
//        (ask-eval-filled.json there), measures again on the same rows without rendering, uploading or waiting for
//        analysis, to compare changes of the server; the folder must be empty on the first run
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { jsonApi, percentile, root, round, startAtrium } from './files-lib.mjs';
import { manPages, nameLine, renderManPage, seededRandom, words } from './man-pages.mjs';

const require = createRequire(path.join(root, 'apps/server/package.json'));
const wanted = Number(process.argv[2] ?? 400);
const PORT = 3317;
const WARM_UP = 20;
const databaseUrl = process.env.BENCH_DATABASE_URL;
const keptData = process.env.ASK_EVAL_DATA;
const work = keptData ? path.resolve(keptData) : mkdtempSync(path.join(tmpdir(), 'atrium-bench-ask-'));
const database = databaseUrl ?? `sqlite:${path.join(work, 'atrium.db')}`;
const engine = databaseUrl ? 'PostgreSQL' : 'SQLite';
// A kept folder filled before: what the quality phase needs (each page's name, question and file id; the counts).
const filledMarker = path.join(work, 'ask-eval-filled.json');
/** @typedef {{ name: string, question: string, id: string }} FilledPage */
/** @type {{ engine: string, filledAt: string, pages: FilledPage[], done: number, passages: number } | undefined} */
const filled = keptData && existsSync(filledMarker) ? JSON.parse(readFileSync(filledMarker, 'utf8')) : undefined;
if (keptData && !filled) {
  mkdirSync(work, { recursive: true });
  // A folder left by a run that stopped before the marker holds some of the uploads: filling again would double them.
  if (readdirSync(work).length > 0) {
    throw new Error(`ASK_EVAL_DATA=${work} is not empty and has no ask-eval-filled.json`);
  }
}
if (filled && filled.engine !== engine) {
  throw new Error(`${filledMarker} was filled on ${filled.engine}, not ${engine}`);
}
if (filled && filled.pages.length !== wanted) {
  throw new Error(`${filledMarker} holds ${filled.pages.length} pages, not ${wanted}`);
}

// ---- The evaluation set ----
/** The pages drawn, rendered and kept (unambiguous ones only). */
function chooseSet() {
  const random = seededRandom(31);
  const candidates = manPages(random);
  const render = renderManPage;

  /** @type {{ name: string, question: string, text: string, id?: string }[]} */
  const pages = [];
  const seen = new Map();
  for (const file of candidates) {
    if (pages.length >= wanted * 1.3) break;
    const text = render(file);
    const line = text && nameLine(text);
    if (!text || !line) continue;
    const name = `${path.basename(file, '.gz')}.txt`;
    const key = words(line.question).join(' ');
    seen.set(key, (seen.get(key) ?? 0) + 1);
    pages.push({ name, question: line.question, text });
  }
  // Ambiguous questions (the same description on two pages) are left out; then the first `wanted` pages.
  const chosen = pages.filter((p) => seen.get(words(p.question).join(' ')) === 1).slice(0, wanted);
  if (chosen.length < wanted) throw new Error(`only ${chosen.length} usable pages`);
  console.log(`evaluation set: ${chosen.length} man pages (${candidates.length} on this machine)`);
  return chosen;
}
/** @type {{ name: string, question: string, text?: string, id?: string }[]} */
const set = filled ? filled.pages : chooseSet();
if (filled) console.log(`evaluation set: ${set.length} man pages, uploaded to ${work} at ${filled.filledAt}`);

// ---- The server, the uploads, analysis ----
const server = await startAtrium({
  port: PORT,
  dataDir: work,
  env: { ANALYSIS_ENABLED: 'true', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
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

/** Runs one statement on the bench database (SQLite file or PostgreSQL). @param {string} statement */
async function execute(statement) {
  if (databaseUrl) {
    const pg = require('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const result = await client.query(statement);
    await client.end();
    return result.rows;
  }
  const Database = require('better-sqlite3');
  const db = new Database(path.join(work, 'atrium.db'));
  db.pragma('busy_timeout = 5000');
  const rows = statement.startsWith('select') ? db.prepare(statement).all() : (db.exec(statement), []);
  db.close();
  return rows;
}

/** Uploads the set, waits for analysis and (ASK_EVAL_DATA) writes the marker; answers the counts. */
async function fill() {
  const uploadStarted = Date.now();
  for (const page of set) {
    const form = new FormData();
    form.append('file', new Blob([page.text ?? ''], { type: 'text/plain' }), page.name);
    const answer = await fetch(`http://127.0.0.1:${PORT}/api/files/upload`, {
      method: 'POST',
      headers: { ...headers, accept: 'application/json' },
      body: form,
    });
    if (!answer.ok) throw new Error(`upload ${page.name}: ${answer.status} ${await answer.text()}`);
    page.id = /** @type {{ id: string }} */ (await answer.json()).id;
  }
  console.log(`uploaded in ${round((Date.now() - uploadStarted) / 1000, 1)} s; waiting for analysis and passages`);
  // Until every file has passages, or none more came for 30 s (a file analysis could not read stays without: it
  // counts as a miss for (b) and (c), and the report says how many).
  let done = 0;
  for (let still = Date.now(); Date.now() - still < 30_000;) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const [row] = await execute('select count(distinct file_id) as n from passages');
    if (Number(row?.n ?? 0) > done) [done, still] = [Number(row?.n ?? 0), Date.now()];
    if (done >= set.length) break;
  }
  const [{ n }] = await execute('select count(*) as n from passages');
  const passages = Number(n);
  console.log(
    `analysed: ${done} of ${set.length} files have passages (${passages}), ${round((Date.now() - uploadStarted) / 1000, 1)} s`,
  );
  if (keptData) {
    const kept = set.map(({ name, question, id }) => ({ name, question, id }));
    const marker = { engine, filledAt: new Date().toISOString(), pages: kept, done, passages };
    writeFileSync(filledMarker, JSON.stringify(marker, null, 1));
  }
  return { done, passages };
}
const { done, passages } = filled ?? (await fill());
if (filled) {
  // The rows measured again are the ones filled (a server change that cuts passages anew would need a new fill).
  const [{ n }] = await execute('select count(*) as n from passages');
  if (Number(n) !== passages) console.log(`warning: ${n} passages now, ${passages} when filled`);
}

// ---- Quality ----
const byId = new Map(set.map((page, i) => [page.id, i]));
/** @param {(string | undefined)[][]} rankings ids per question, best first */
function quality(rankings) {
  let at1 = 0;
  let at5 = 0;
  let mrr = 0;
  rankings.forEach((ids, i) => {
    const rank = ids.slice(0, 10).findIndex((id) => byId.get(id) === i) + 1;
    if (rank === 1) at1 += 1;
    if (rank >= 1 && rank <= 5) at5 += 1;
    if (rank >= 1) mrr += 1 / rank;
  });
  const n = rankings.length;
  return { 'recall@1': round(at1 / n, 3), 'recall@5': round(at5 / n, 3), MRR: round(mrr / n, 3) };
}

/** @type {string[][]} */
const searched = [];
for (const page of set) {
  const found = await api('GET', `/api/search?q=${encodeURIComponent(page.question.slice(0, 200))}`);
  searched.push(
    found.items
      .filter((/** @type {{ kind: string }} */ item) => item.kind === 'file')
      .map((/** @type {{ id: string }} */ item) => item.id),
  );
}
const input = path.join(work, 'ask-eval-input.json');
writeFileSync(input, JSON.stringify({ database, questions: set.map((p) => p.question) }));
const direct = JSON.parse(
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join(root, 'bench/ask-retrieval.ts'), input],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  ),
);

// ---- Latency of POST /api/ask (and what its citations say, as a check on (c)) ----
const resetLimit = () => execute("delete from rate_limits where key like 'ask:%'");
/** @type {number[]} */
const times = [];
/** @type {string[][]} */
const cited = [];
const questions = [...set.slice(0, WARM_UP).map((p) => p.question), ...set.map((p) => p.question)];
for (const [i, question] of questions.entries()) {
  if (i % 20 === 0) await resetLimit();
  const started = performance.now();
  const answer = await api('POST', '/api/ask', { question });
  const ms = performance.now() - started;
  if (i >= WARM_UP) {
    times.push(ms);
    cited.push([...new Set(answer.citations.map((/** @type {{ fileId: string }} */ c) => c.fileId))]);
  }
}

const rows = {
  '(a) plain search': quality(searched),
  '(b) passages + BM25': quality(direct.plain),
  '(c) + query expansion (WordNet)': quality(direct.expanded),
  'POST /api/ask citations (= c, top 5 passages)': quality(cited),
};
console.log(
  `\n${new Date().toISOString()}, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(`${engine}, ${set.length} questions, ${done} files with ${passages} passages`);
console.table(rows);
console.log('(d) + dense vectors: not measured, no embeddings provider is available on this machine');
console.log(
  `POST /api/ask (extractive): p50 ${round(percentile(times, 50), 1)} ms, p95 ${round(percentile(times, 95), 1)} ms, ` +
    `max ${round(Math.max(...times), 1)} ms over ${times.length} requests`,
);
// A few misses of (c), to read.
const misses = set.filter(
  (_, i) => !direct.expanded[i].slice(0, 5).some((/** @type {string} */ id) => byId.get(id) === i),
);
for (const page of misses.slice(0, 12)) {
  const i = set.indexOf(page);
  const top = direct.expanded[i].slice(0, 3).map((/** @type {string} */ id) => set[byId.get(id) ?? -1]?.name);
  console.log(`miss: "${page.question}" → ${page.name}; found ${top.join(', ') || 'nothing'}`);
}
process.exit(0);

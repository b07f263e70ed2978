// Search at 100,000 files (docs/PRODUCT.md#search): p50/p99 of typical prefix queries through GET /api/search.
// The server starts on an empty data folder; 100,000 file rows (and 1,100 folders) are then written straight into its
// database, as uploads would leave them (the bytes are not needed to search names): 60,000 in the admin's personal
// space across 500 folders, 20,000 in a workspace the admin is a member of, 20,000 in another person's personal space
// that the admin must never see (the access filter runs over them too) but for one folder of it shared with the admin.
// The triggers of migrations 0017 and 0024 index every row as it is inserted. Then 300 sequential requests per query
// (after 20 warm-up), each with the session cookie.
// Analysed mode (docs/PRODUCT.md#file-insights): every file also gets content text as the background analysis leaves it
// (OCR, transcript or document text: 200 words drawn from a 5,000-word vocabulary with Zipf's law, so the commonest
// word is in nearly every file and the rarest in a few hundred), written the way `search.setContent` writes it (SQLite:
// `search_documents` and the FTS5 row; PostgreSQL: `content` and `content_tsv`); the queries are then the same plus
// words that appear only in content, from the commonest to a rare one.
// Usage: npm run build && node bench/search.mjs [files=100000] [names|analysed]
//        BENCH_DATABASE_URL=postgres://… node bench/search.mjs   (PostgreSQL; the database must be empty)
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { drain, jsonApi, percentile, root, startAtrium } from './files-lib.mjs';
import { insertRowsPostgres, insertRowsSqlite, spreadRows } from './spread.mjs';

const require = createRequire(path.join(root, 'apps/server/package.json'));
const total = Number(process.argv[2] ?? 100_000);
const analysed = process.argv[3] === 'analysed';
const CONTENT_WORDS = 200;
const PORT = 3313;
const RUNS = 300;
const WARM_UP = 20;
const databaseUrl = process.env.BENCH_DATABASE_URL;
const work = mkdtempSync(path.join(tmpdir(), 'atrium-bench-search-'));

const WORDS = (
  'report invoice budget meeting notes photo holiday contract draft final summary plan roadmap design review ' +
  'sales marketing quarter annual minutes agenda proposal research analysis presentation slides diagram sketch ' +
  'scan receipt statement payroll schedule timeline backlog release retro interview candidate offer policy ' +
  'handbook guide manual spec architecture benchmark results dataset export import backup archive screenshot ' +
  'logo banner poster flyer brochure newsletter podcast episode recording transcript video clip trailer demo'
).split(' ');
const EXTENSIONS = [
  ['pdf', 'application/pdf'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['mp4', 'video/mp4'],
  ['mp3', 'audio/mpeg'],
  ['txt', 'text/plain'],
  ['zip', 'application/zip'],
];
let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
/** @template T @param {T[]} list @returns {T} */
const pick = (list) => /** @type {T} */ (list[Math.floor(random() * list.length)]);

/** A second generator for the content (mulberry32: `random` above repeats too soon for 5,000 distinct words). */
let contentSeed = 17;
const contentRandom = () => {
  contentSeed = (contentSeed + 0x6d2b79f5) | 0;
  let t = Math.imul(contentSeed ^ (contentSeed >>> 15), 1 | contentSeed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
/** @param {string[]} list */
const pickContent = (list) => /** @type {string} */ (list[Math.floor(contentRandom() * list.length)]);
/** The content vocabulary: 5,000 made-up words (never one of the name words), drawn by Zipf's law. */
const VOCABULARY = (() => {
  const consonants = 'bdfgklmnprstvz';
  const vowels = 'aeiou';
  const words = new Set();
  while (words.size < 5000) {
    let word = '';
    const syllables = 2 + Math.floor(contentRandom() * 3);
    for (let i = 0; i < syllables; i++) word += pickContent([...consonants]) + pickContent([...vowels]);
    if (!WORDS.includes(word)) words.add(word);
  }
  return [...words];
})();
const zipf = (() => {
  /** @type {number[]} */
  const cumulative = [];
  let sum = 0;
  for (let rank = 1; rank <= VOCABULARY.length; rank++) cumulative.push((sum += 1 / rank));
  return () => {
    const x = contentRandom() * sum;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (/** @type {number} */ (cumulative[mid]) < x) low = mid + 1;
      else high = mid;
    }
    return /** @type {string} */ (VOCABULARY[low]);
  };
})();
/** A file's content text: sentences of 8–15 words. */
const contentText = () => {
  const sentences = [];
  for (let n = 0; n < CONTENT_WORDS;) {
    const length = Math.min(8 + Math.floor(contentRandom() * 8), CONTENT_WORDS - n);
    const sentence = Array.from({ length }, zipf).join(' ');
    sentences.push(`${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`);
    n += length;
  }
  return sentences.join(' ');
};

const server = await startAtrium({
  port: PORT,
  dataDir: work,
  env: databaseUrl ? { DATABASE_URL: databaseUrl } : {},
});
// Never leave the server running, even when the bench fails.
process.on('exit', () => {
  try {
    process.kill(server.pid);
  } catch {
    // already gone
  }
});
const headers = { cookie: server.cookie };
const api = jsonApi(PORT, headers);

const spaces = await api('GET', '/api/spaces');
const personalRoot = spaces[0].rootFolderId;
const workspace = await api('POST', '/api/workspaces', { name: 'Bench team' });

// The rows, as the server writes them; the stranger shares one of their folders (~1/300 of their files) with the
// admin: search also looks through shares.
const me = await api('GET', '/api/me');
const { folders, files, shares } = spreadRows({
  total,
  random,
  personalRoot,
  workspace,
  adminId: me.id,
  folderName: (i) => `${pick(WORDS)} ${pick(WORDS)} ${i}`,
  file: (i) => {
    const [extension, type] = pick(EXTENSIONS);
    const name = `${pick(WORDS)}-${pick(WORDS)}-${2000 + (i % 30)}-${i}.${extension}`;
    return { name, contentType: type ?? 'text/plain', size: 1000 + Math.floor(random() * 1e6) };
  },
});
/** @type {[string, Record<string, unknown>[]][]} */
const tables = [
  ['folders', folders],
  ['files', files],
  ['shares', shares],
];

const insertStarted = performance.now();
if (databaseUrl) {
  const pg = require('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await insertRowsPostgres(client, tables);
  if (analysed) {
    await client.query('begin');
    for (let at = 0; at < files.length; at += 500) {
      const batch = files.slice(at, at + 500);
      // What setContent writes: the text and its tsvector.
      await client.query(
        `update search_documents d set content = v.content, content_tsv = atrium_search_words(v.content)
         from (select unnest($1::text[]) as id, unnest($2::text[]) as content) v
         where d.item_id = v.id and d.kind = 'file'`,
        [batch.map((file) => file.id), batch.map(() => contentText())],
      );
    }
    await client.query('commit');
  }
  await client.query('analyze');
  await client.end();
} else {
  const db = insertRowsSqlite(path.join(work, 'atrium.db'), tables);
  if (analysed) {
    // What setContent writes: the document's text, then its FTS5 row.
    const documents = db.prepare(`update search_documents set content = ? where item_id = ? and kind = 'file'`);
    const fts = db.prepare(
      `update search_fts set content = ? where rowid = (select doc_id from search_documents where item_id = ?)`,
    );
    db.transaction(() => {
      for (const file of files) {
        const text = contentText();
        documents.run(text, file.id);
        fts.run(text, file.id);
      }
    })();
  }
  db.exec(`insert into search_fts (search_fts) values ('optimize')`);
  db.exec('analyze');
  db.close();
}
const insertSeconds = (performance.now() - insertStarted) / 1000;

const QUERIES = ['rep', 'report', 'inv', 'budget 20', 'pho', 'meeting notes', 'q', 'arch', 'xyzzy', 'scr pdf'];
if (analysed) {
  const word = (/** @type {number} */ rank) => /** @type {string} */ (VOCABULARY[rank - 1]);
  // Content only: the commonest word (in nearly every file), then rarer ones, a prefix, two words, name + content.
  QUERIES.push(
    word(1),
    word(10),
    word(200),
    word(3000),
    word(500).slice(0, 3),
    `${word(20)} ${word(300)}`,
    `report ${word(100)}`,
  );
}
/** @type {string[]} */
const lines = [];
for (const q of QUERIES) {
  const url = `/api/search?q=${encodeURIComponent(q)}`;
  let results = 0;
  for (let i = 0; i < WARM_UP; i++) {
    // The first request after the rows were written may meet a kept-alive socket the server closed meanwhile.
    const answer = await fetch(`http://127.0.0.1:${PORT}${url}`, { headers }).catch(() =>
      fetch(`http://127.0.0.1:${PORT}${url}`, { headers }),
    );
    if (answer.status !== 200) throw new Error(`${url}: ${answer.status} ${await answer.text()}`);
    results = /** @type {{ items: unknown[] }} */ (await answer.json()).items.length;
  }
  /** @type {number[]} */
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const answer = await drain({ port: PORT, path: url, headers });
    if (answer.status !== 200) throw new Error(`${url}: ${answer.status}`);
    times.push(answer.ms);
  }
  const line = `| \`${q}\` | ${results} | ${percentile(times, 50).toFixed(2)} / ${percentile(times, 99).toFixed(2)} ms |`;
  lines.push(line);
  console.log(line);
}
const all = lines.length;
console.log(
  `\n${databaseUrl ? 'PostgreSQL' : 'SQLite'}, ${files.length} files${analysed ? ` with ${CONTENT_WORDS} words of content each` : ''}, ${folders.length} folders; rows inserted and indexed in ${insertSeconds.toFixed(1)} s; ${all} queries × ${RUNS} requests; load average at the end ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ')}`,
);
await server.stop();
rmSync(work, { recursive: true, force: true });

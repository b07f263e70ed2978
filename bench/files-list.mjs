// Listing and stats for a user with 10,000 files: uploads 10,000 small files through the API
// (8 at a time), then measures GET /api/files/user/admin?limit=50 (first and a deep page) and
// GET /api/files/user-stats/admin, 300 requests each, one at a time. Prints p50/p99.
// Usage: npm run build && node bench/files-list.mjs [files=10000]   (DATABASE_URL=postgres://… for PostgreSQL)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { forEachConcurrently, percentile, startAtrium, uploadMultipart } from './files-lib.mjs';

const total = Number(process.argv[2] ?? 10_000);
const PORT = 3296;
const work = mkdtempSync(path.join(tmpdir(), 'atrium-bench-list-'));
const server = await startAtrium({ port: PORT, dataDir: work });
const headers = { cookie: server.cookie };
try {
  const fillStarted = performance.now();
  await forEachConcurrently(total, 8, async (index) => {
    const body = Buffer.from(`file number ${index}\n`);
    const answer = await uploadMultipart({
      port: PORT,
      headers,
      query: '?userId=admin',
      name: `note-${index}.txt`,
      size: body.length,
      bytes: body,
    });
    if (answer.status !== 200) throw new Error(`upload failed: ${answer.status} ${answer.body}`);
  });
  console.log(`stored ${total} files in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s`);

  /**
   * @param {string} url
   * @returns {Promise<{ samples: number[], last: Response }>}
   */
  const time = async (url, runs = 300) => {
    /** @type {number[]} */
    const samples = [];
    let last = new Response();
    for (let i = 0; i < runs; i += 1) {
      const started = performance.now();
      last = await fetch(`http://127.0.0.1:${PORT}${url}`, { headers });
      await last.arrayBuffer();
      samples.push(performance.now() - started);
    }
    return { samples, last };
  };
  const first = await time('/api/files/user/admin?limit=50');
  // A page deep in the list: follow the cursor 100 pages in.
  let cursor = first.last.headers.get('x-next-cursor');
  for (let i = 0; i < 100 && cursor; i += 1) {
    const page = await fetch(`http://127.0.0.1:${PORT}/api/files/user/admin?limit=50&cursor=${cursor}`, { headers });
    await page.arrayBuffer();
    cursor = page.headers.get('x-next-cursor');
  }
  const deep = await time(`/api/files/user/admin?limit=50&cursor=${cursor}`);
  const stats = await time('/api/files/user-stats/admin');
  const statsBody = await (await fetch(`http://127.0.0.1:${PORT}/api/files/user-stats/admin`, { headers })).json();
  /** @param {string} name @param {{ samples: number[] }} result */
  const report = (name, { samples }) =>
    console.log(`${name}: p50 ${percentile(samples, 50).toFixed(1)} ms, p99 ${percentile(samples, 99).toFixed(1)} ms`);
  report('list, first page of 50', first);
  report('list, page 101 of 50 (cursor)', deep);
  report('stats', stats);
  console.log(`stats answer: ${JSON.stringify(statsBody)}`);
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

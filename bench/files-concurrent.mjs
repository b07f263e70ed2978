// 50 concurrent uploads of 10 MB files over loopback: every file is downloaded again and its
// SHA-256 compared with what was sent; prints p50/p99/max upload latency and the server's RSS growth.
// Usage: npm run build && node bench/files-concurrent.mjs [count=50] [sizeMB=10]
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mib, percentile, rssOf, sampleRss, startAtrium, uploadMultipart } from './files-lib.mjs';

const count = Number(process.argv[2] ?? 50);
const size = Number(process.argv[3] ?? 10) * 1000 * 1000;
const PORT = 3295;
const work = mkdtempSync(path.join(tmpdir(), 'atrium-bench-concurrent-'));
const sha = (/** @type {Buffer} */ buffer) => createHash('sha256').update(buffer).digest('hex');

const server = await startAtrium({ port: PORT, dataDir: work, env: { USER_QUOTA_BYTES: String(count * size * 2) } });
try {
  const payloads = Array.from({ length: count }, () => randomBytes(size));
  const baseline = rssOf(server.pid);
  const stopSampling = sampleRss(server.pid);
  const started = performance.now();
  const results = await Promise.all(
    payloads.map(async (bytes, index) => {
      const answer = await uploadMultipart({
        port: PORT,
        headers: { cookie: server.cookie, accept: 'application/json' },
        query: '?userId=admin',
        name: `file-${index}.bin`,
        size,
        bytes,
      });
      if (answer.status !== 200) throw new Error(`upload ${index} failed: ${answer.status} ${answer.body}`);
      return { ms: answer.ms, id: /** @type {{ id: string }} */ (JSON.parse(answer.body)).id };
    }),
  );
  const wall = performance.now() - started;
  const peak = stopSampling();

  let intact = 0;
  for (const [index, { id }] of results.entries()) {
    const response = await fetch(`http://127.0.0.1:${PORT}/api/files/download/${id}`, {
      headers: { cookie: server.cookie },
    });
    if (sha(Buffer.from(await response.arrayBuffer())) === sha(/** @type {Buffer} */ (payloads[index]))) intact += 1;
  }
  const latencies = results.map((result) => result.ms);
  console.log(
    `${count} concurrent uploads of ${size / 1e6} MB: ${intact}/${count} intact (SHA-256 of the downloaded bytes)`,
  );
  console.log(
    `latency p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms; wall ${(wall / 1000).toFixed(2)} s (${((count * size) / 1e6 / (wall / 1000)).toFixed(0)} MB/s aggregate); server RSS ${mib(baseline).toFixed(0)} MiB, +${mib(peak - baseline).toFixed(0)} MiB at peak`,
  );
  if (intact !== count) process.exitCode = 1;
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

// Anonymous link unlocks against everyone's file I/O: the time of a signed-in 2 MB download (and of /healthz) while
// 60 parallel wrong-password unlocks run (60 addresses behind a trusted proxy, 20 a link: within every count), against
// the same download on an idle server. scrypt and file reads share libuv's thread pool; the server bounds password
// checks (lib/passwords.ts) and is started with UV_THREADPOOL_SIZE as given (default here: the deploy value, 16).
// Usage: node scripts/run.mjs node bench/link-unlock-io.mjs [rounds=5] [UV_THREADPOOL_SIZE=16]   (runs src/main.ts with tsx; loopback only)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN_PASSWORD, drain, jsonApi, median, root, round, signInAdmin, uploadMultipart } from './files-lib.mjs';

const ROUNDS = Number(process.argv[2] ?? 5);
const POOL = process.argv[3] ?? '16';
const PORT = 3431;
const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-unlock-'));
const env = {
  ...process.env,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  ADMIN_PASSWORD,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  SESSION_SECRET: 'bench-session-secret-bench-session-secret',
  ANALYSIS_ENABLED: 'false',
  TRUST_PROXY: '127.0.0.1',
  ...(POOL === 'unset' ? {} : { UV_THREADPOOL_SIZE: POOL }),
};
if (POOL === 'unset') delete env.UV_THREADPOOL_SIZE;
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: path.join(root, 'apps/server'),
  env,
  stdio: ['ignore', 'ignore', 'inherit'],
});
process.on('exit', () => {
  child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});
for (let started = Date.now(); ;) {
  if ((await fetch(`http://127.0.0.1:${PORT}/healthz`).catch(() => null))?.ok) break;
  if (Date.now() - started > 60_000) throw new Error('server did not start in 60 s');
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const cookie = await signInAdmin(PORT);
const api = jsonApi(PORT, { cookie });
const size = 2 * 1024 * 1024;
const uploaded = await uploadMultipart({
  port: PORT,
  headers: { cookie, accept: 'application/json' },
  name: 'two-mb.bin',
  size,
  bytes: Buffer.alloc(size, 7),
});
const fileId = JSON.parse(uploaded.body).id;
/** 60 unlocks in parallel: 3 links × 20 addresses each (new links each round, so no count is reached). */
/** @param {number} round */
async function flood(round) {
  const links = await Promise.all(
    [0, 1, 2].map(async () => api('POST', '/api/links', { fileId, password: 'the right one' })),
  );
  /** @type {Record<number, number>} */
  const statuses = {};
  await Promise.all(
    Array.from({ length: 60 }, async (_, i) => {
      const answer = await fetch(`http://127.0.0.1:${PORT}/api/public/links/${links[i % 3].token}/unlock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${round}.${i}.1` },
        body: JSON.stringify({ password: `wrong ${i}` }),
      });
      await answer.arrayBuffer();
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    }),
  );
  return statuses;
}
const download = () => drain({ port: PORT, path: `/api/files/download/${fileId}`, headers: { cookie } });
const health = async () => {
  const started = performance.now();
  await (await fetch(`http://127.0.0.1:${PORT}/healthz`)).arrayBuffer();
  return performance.now() - started;
};
const idle = [];
const loaded = [];
const healthMs = [];
/** @type {Record<number, number>} */
let statuses = {};
for (let round = 0; round < ROUNDS; round++) {
  idle.push((await download()).ms);
  const attack = flood(round);
  await new Promise((resolve) => setTimeout(resolve, 30));
  const [during, healthz] = await Promise.all([download(), health()]);
  if (during.status !== 200 || during.bytes !== size) throw new Error(`download failed: ${during.status}`);
  loaded.push(during.ms);
  healthMs.push(healthz);
  statuses = await attack;
}
console.log(
  JSON.stringify({
    UV_THREADPOOL_SIZE: POOL,
    rounds: ROUNDS,
    downloadIdleMsMedian: round(median(idle)),
    downloadDuringUnlocksMsMedian: round(median(loaded)),
    downloadDuringUnlocksMsMax: round(Math.max(...loaded)),
    healthzDuringUnlocksMsMedian: round(median(healthMs)),
    lastRoundUnlockStatuses: statuses,
  }),
);
process.exit(0);

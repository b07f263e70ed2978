// Start-up to healthy: spawns the built server and polls /healthz until it answers 200.
// Usage: node bench/startup.mjs [runs]   (build first: npm run build)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 7);
const port = 3190;

/** @param {string} dataDir */
async function once(dataDir) {
  // Another server on the port would answer /healthz at once and fake the figure.
  if (
    await fetch(`http://127.0.0.1:${port}/healthz`).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`port ${port} is already in use: stop what listens there first`);
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'bench-password',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (response.ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (performance.now() - started > 30_000) throw new Error('server did not become healthy in 30 s');
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-'));
const first = await once(dataDir); // creates the database and runs migrations
const warm = [];
for (let i = 0; i < runs; i += 1) warm.push(await once(dataDir));
rmSync(dataDir, { recursive: true, force: true });
console.log(`first start (new data folder, migrations): ${first.toFixed(0)} ms`);
console.log(
  `restart to healthy: median ${median(warm).toFixed(0)} ms, max ${Math.max(...warm).toFixed(0)} ms over ${runs} runs`,
);

// A rolling restart under steady load, measured: the scale-out tier's test (apps/server/test/scale-out/, nginx with
// deploy/nginx/atrium-proxy.conf and the shipped upstream parameters in front of two built instances on PostgreSQL,
// Redis and S3) restarts each instance in turn as docs/DEPLOY.md's loop does, while 1,000 notification streams, a
// publisher and two uploaders run (after the sign-in test, which gives it the admin's session); this runs it
// `rounds` times and prints what clients saw each time.
// Usage: npm run build && TEST_DATABASE_URL=… TEST_REDIS_URL=… node bench/rolling-restart.mjs [rounds=3]
// (needs: apt-get install -y nginx)
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';

const rounds = Number(process.argv[2] ?? 3);
const rows = [];
for (let round = 1; round <= rounds; round++) {
  const load = (loadavg()[0] ?? 0).toFixed(1);
  const run = spawnSync(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '-c',
      'apps/server/test/scale-out/vitest.config.ts',
      'apps/server/test/scale-out/scale-out.test.ts',
      '-t',
      'signs the built-in admin|restarts each instance',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const line = /rolling restart: (\{.*\})/.exec(run.stdout)?.[1];
  if (!line) {
    process.stderr.write(`${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}\n`);
    throw new Error(`round ${round}: the test printed no summary (exit ${run.status})`);
  }
  const summary = JSON.parse(line);
  const row = { round, load, passed: run.status === 0, ...summary };
  rows.push(row);
  console.log(JSON.stringify(row));
}
console.log(
  '\n| round | load | restart of both | stream connections (errors) | publishes (errors) | uploads acknowledged (errors) | error rate | failures | nginx errors |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  console.log(
    `| ${r.round} | ${r.load} | ${r.restartSeconds} s | ${r.streamConnections} (${r.streamConnectionErrors}) | ${r.publishes} (${r.publishErrors}) | ${r.uploadsAcknowledged} of ${r.uploads} (${r.uploadErrors}) | ${r.clientErrorRate} | ${r.failures || '–'} | ${r.nginxErrors || '–'} |`,
  );
}

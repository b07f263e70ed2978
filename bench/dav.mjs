// WebDAV beside nginx dav-ext (docs/PRODUCT.md#webdav), in one run: Atrium's tree at
// /remote.php/dav/files/<ownerKey>/Personal/ (HTTP Basic with an app password made through the API) and Debian's nginx
// with `dav_methods PUT DELETE MKCOL COPY MOVE; dav_ext_methods PROPFIND OPTIONS LOCK UNLOCK;` over a folder. Each round
// runs every step on both servers, the order alternating from round to round (Atrium first in odd rounds):
// - PUT then GET of a file of fresh random bytes (1 GiB): MiB/s, and the server's peak RSS growth (Atrium's process,
//   nginx's worker), sampled every 50 ms;
// - PROPFIND Depth: 1 of a folder of 10,000 files, with an empty body (allprop) and with the body rclone sends (its
//   property list, oc:checksums and oc:permissions among them), 15 times each after 5 untimed: time to the last byte,
//   bytes, peak RSS growth (round 1 also prints the untimed ones: the cold start);
// - `rclone sync` of 1,000 small files (10 folders, 1–64 KiB each) up into a new folder, then down into a new local
//   folder: wall time (then `rclone check` of the two local trees, outside the time).
// Both servers stay up through the run; before every timed step the bench runs `sync` and waits until Atrium's
// process is idle (its background work on the previous step's files: analysis, search index), so a step is timed
// alone. The machine's load average is printed with every round.
// Usage: npm run build && node bench/dav.mjs [sizeMiB=1024] [rounds=3] [entries=10000] [smallFiles=1000]
// DAV_BENCH_ONLY=propfind (a comma-separated list of put, get, propfind, rclone) runs only those steps, e.g. to measure
// a PROPFIND change in minutes; get needs put. The summary then names only the steps that ran.
// (needs: apt-get install -y --no-install-recommends nginx libnginx-mod-http-dav-ext rclone)
import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  drain,
  forEachConcurrently,
  jsonApi,
  median,
  mib,
  percentile,
  pipeFile,
  rssOf,
  sampleRss,
  send,
  startAtrium,
  startStaticNginx,
  writeRandomPayload,
} from './files-lib.mjs';

const sizeMiB = Number(process.argv[2] ?? 1024);
const rounds = Number(process.argv[3] ?? 3);
const entries = Number(process.argv[4] ?? 10_000);
const smallFiles = Number(process.argv[5] ?? 1000);
const size = sizeMiB * 1024 * 1024;
const PROPFIND_RUNS = 15;
/**
 * Untimed PROPFINDs before each timed series, on both servers. One was not enough for a server just started: V8 still
 * compiled the listing's code and promoted its garbage, and a full collection landed in the third request (73 ms
 * against 30; `--trace-gc`, docs/BENCHMARKS.md, WebDAV). Round 1's are printed apart, as the cold start.
 */
const PROPFIND_WARM = 5;
const ATRIUM_PORT = 3320;
const NGINX_PORT = 3321;
const DAV_EXT = '/usr/lib/nginx/modules/ngx_http_dav_ext_module.so';
const run = promisify(execFile);
const PHASES = ['put', 'get', 'propfind', 'rclone'];
const only = (process.env.DAV_BENCH_ONLY ?? '')
  .split(',')
  .map((x) => x.trim())
  .filter(Boolean);
for (const phase of only) if (!PHASES.includes(phase)) throw new Error(`DAV_BENCH_ONLY: unknown step ${phase}`);
if (only.includes('get') && !only.includes('put')) throw new Error('DAV_BENCH_ONLY: get needs put');
const runs = (/** @type {string} */ phase) => only.length === 0 || only.includes(phase);

if (spawnSync('/usr/sbin/nginx', ['-v']).status !== 0) throw new Error('nginx is missing: apt-get install -y nginx');
if (!existsSync(DAV_EXT)) throw new Error('dav-ext is missing: apt-get install -y libnginx-mod-http-dav-ext');
if (spawnSync('rclone', ['version']).status !== 0) throw new Error('rclone is missing: apt-get install -y rclone');

const work = mkdtempSync(path.join(tmpdir(), 'atrium-bench-dav-'));
// nginx's worker runs as nobody: it must reach its folder and write into the DAV one.
chmodSync(work, 0o755);
const source = path.join(work, 'payload.bin');
if (runs('put')) writeRandomPayload(source, size);

// The small files rclone syncs: 10 folders, sizes 1–64 KiB, fresh random bytes.
const smallTree = path.join(work, 'small');
for (let i = 0; i < (runs('rclone') ? smallFiles : 0); i += 1) {
  const folder = path.join(smallTree, `folder ${i % 10}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, `file ${i}.bin`), randomBytes(1024 + ((i * 7919) % (63 * 1024))));
}

/** The body rclone's webdav remote sends with its PROPFINDs (backend/webdav, rclone 1.60). */
const RCLONE_PROPFIND = `<?xml version="1.0"?>
<d:propfind  xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">
 <d:prop>
  <d:displayname />
  <d:getlastmodified />
  <d:getcontentlength />
  <d:resourcetype />
  <d:getcontenttype />
  <oc:checksums />
  <oc:permissions />
 </d:prop>
</d:propfind>
`;

/** The PROPFIND bodies timed: empty (allprop) and rclone's. */
const PROPFIND_BODIES = /** @type {const} */ ([
  ['allprop', ''],
  ['rclone', RCLONE_PROPFIND],
]);

/** CPU seconds a process has used (user + system, all its threads). @param {number} pid */
const cpuSeconds = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** Writes back dirty pages, then waits until `pid` used under 3% of a core for a second (at most 5 min). */
async function settle(/** @type {number} */ pid) {
  spawnSync('sync');
  const deadline = Date.now() + 300_000;
  let before = cpuSeconds(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuSeconds(pid);
    if (now - before < 0.03) return;
    before = now;
  }
  console.warn('Atrium did not become idle within 5 min; measuring anyway');
}

/** A process's peak RSS growth over `task`. @template T @param {number} pid @param {() => Promise<T>} task */
async function withRss(pid, task) {
  const baseline = rssOf(pid);
  const stop = sampleRss(pid);
  const result = await task();
  return { result, growth: stop() - baseline };
}

// --- the two servers -------------------------------------------------------------------------------------------
const atrium = await startAtrium({
  port: ATRIUM_PORT,
  dataDir: path.join(work, 'atrium'),
  env: { MAX_UPLOAD_BYTES: String(size * 2), USER_QUOTA_BYTES: String(size * 4 + 4 * 1024 ** 3) },
});
const api = jsonApi(ATRIUM_PORT, { cookie: atrium.cookie });
const created = await api('POST', '/api/me/app-passwords', { name: 'bench' });
const me = await api('GET', '/api/me');
const ownerKey = String(me.ownerKey);
const basic = `Basic ${Buffer.from(`${ownerKey}:${created.password}`).toString('base64')}`;
const atriumBase = `/remote.php/dav/files/${encodeURIComponent(ownerKey)}/Personal`;

const nginxDir = path.join(work, 'nginx');
const davRoot = path.join(nginxDir, 'www/dav');
for (const sub of ['www/dav', 'body']) {
  mkdirSync(path.join(nginxDir, sub), { recursive: true });
  chmodSync(path.join(nginxDir, sub), 0o777);
}
const stopNginx = await startStaticNginx({
  dir: nginxDir,
  port: NGINX_PORT,
  main: `load_module ${DAV_EXT};`,
  http: `client_max_body_size ${size * 2}; dav_ext_lock_zone zone=bench:10m;`,
  server: `location /dav/ {
      dav_methods PUT DELETE MKCOL COPY MOVE;
      dav_ext_methods PROPFIND OPTIONS LOCK UNLOCK;
      dav_ext_lock zone=bench;
      create_full_put_path on;
      dav_access user:rw group:rw all:rw;
    }`,
});
const nginxPid = (() => {
  const master = readFileSync(path.join(nginxDir, 'nginx.pid'), 'utf8').trim();
  const workers = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(/\s+/);
  return Number(workers[0]);
})();

try {
  /** One server as the steps see it. */
  const targets = {
    atrium: {
      port: ATRIUM_PORT,
      pid: atrium.pid,
      headers: { authorization: basic },
      url: (/** @type {string} */ rel) => `${atriumBase}/${rel}`,
      rclone: {
        RCLONE_CONFIG_BENCH_TYPE: 'webdav',
        RCLONE_CONFIG_BENCH_URL: `http://127.0.0.1:${ATRIUM_PORT}${atriumBase}`,
        RCLONE_CONFIG_BENCH_VENDOR: 'nextcloud',
        RCLONE_CONFIG_BENCH_USER: ownerKey,
        RCLONE_CONFIG_BENCH_PASS: (await run('rclone', ['obscure', created.password])).stdout.trim(),
      },
    },
    nginx: {
      port: NGINX_PORT,
      pid: nginxPid,
      headers: {},
      url: (/** @type {string} */ rel) => `/dav/${rel}`,
      rclone: {
        RCLONE_CONFIG_BENCH_TYPE: 'webdav',
        RCLONE_CONFIG_BENCH_URL: `http://127.0.0.1:${NGINX_PORT}/dav`,
        RCLONE_CONFIG_BENCH_VENDOR: 'other',
      },
    },
  };
  /** @typedef {keyof typeof targets} Name */

  /** @param {string[]} args @param {Record<string, string>} env */
  async function rclone(args, env) {
    try {
      await run('rclone', [...args, '--retries', '1', '--low-level-retries', '2'], {
        env: { ...process.env, ...env, RCLONE_CONFIG: '/dev/null' },
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      const failed = /** @type {{ stderr?: string }} */ (error);
      throw new Error(`rclone ${args.join(' ')} failed:\n${failed.stderr ?? ''}`);
    }
  }

  // --- the folder of 10,000 files ----------------------------------------------------------------------------------
  const fillStarted = performance.now();
  mkdirSync(path.join(davRoot, 'many'), { mode: 0o777 });
  const mkcol = await send({
    port: ATRIUM_PORT,
    method: 'MKCOL',
    path: targets.atrium.url('many/'),
    headers: { authorization: basic },
    writeBody: (req) => req.end(),
  });
  if (mkcol.status !== 201) throw new Error(`MKCOL failed: ${mkcol.status} ${mkcol.body}`);
  await forEachConcurrently(entries, 8, async (index) => {
    const name = `entry ${String(index).padStart(5, '0')}.txt`;
    const body = Buffer.from(`entry number ${index}\n`);
    writeFileSync(path.join(davRoot, 'many', name), body);
    const put = await send({
      port: ATRIUM_PORT,
      method: 'PUT',
      path: targets.atrium.url(`many/${encodeURIComponent(name)}`),
      headers: { authorization: basic, 'content-length': body.length },
      writeBody: (req) => req.end(body),
    });
    if (put.status !== 201) throw new Error(`PUT failed: ${put.status} ${put.body}`);
  });
  console.log(
    `filled a folder with ${entries} files on both servers in ${((performance.now() - fillStarted) / 1000).toFixed(0)} s`,
  );

  // --- the steps ----------------------------------------------------------------------------------------------------
  /** @param {Name} name @param {number} round */
  async function putBig(name, round) {
    const t = targets[name];
    const { result, growth } = await withRss(t.pid, () =>
      send({
        port: t.port,
        method: 'PUT',
        path: t.url(`big-${round}.bin`),
        headers: { ...t.headers, 'content-length': size },
        writeBody: (req) => pipeFile(req, source),
      }),
    );
    if (result.status !== 201) throw new Error(`${name} PUT failed: ${result.status} ${result.body}`);
    return { ms: result.ms, growth };
  }

  /** @param {Name} name @param {number} round */
  async function getBig(name, round) {
    const t = targets[name];
    const { result, growth } = await withRss(t.pid, () =>
      drain({ port: t.port, path: t.url(`big-${round}.bin`), headers: t.headers }),
    );
    if (result.status !== 200 || result.bytes !== size)
      throw new Error(`${name} GET: ${result.status} ${result.bytes}`);
    return { ms: result.ms, growth };
  }

  /** @param {Name} name @param {string} body */
  async function propfind(name, body) {
    const t = targets[name];
    const once = () =>
      drain({
        port: t.port,
        method: 'PROPFIND',
        path: t.url('many/'),
        headers: {
          ...t.headers,
          depth: '1',
          'content-type': 'application/xml; charset=utf-8',
          'content-length': Buffer.byteLength(body),
        },
        body,
      });
    /** @type {number[]} */
    const cold = [];
    for (let i = 0; i < PROPFIND_WARM; i += 1) {
      const warm = await once();
      if (warm.status !== 207) throw new Error(`${name} PROPFIND: ${warm.status}`);
      cold.push(warm.ms);
    }
    /** @type {number[]} */
    const ms = [];
    let bytes = 0;
    const { growth } = await withRss(t.pid, async () => {
      for (let i = 0; i < PROPFIND_RUNS; i += 1) {
        const answer = await once();
        if (answer.status !== 207) throw new Error(`${name} PROPFIND: ${answer.status}`);
        ms.push(answer.ms);
        bytes = answer.bytes;
      }
    });
    return { ms, bytes, growth, cold };
  }

  /** @param {Name} name @param {number} round */
  async function rcloneUp(name, round) {
    const started = performance.now();
    await rclone(['sync', smallTree, `bench:sync-${round}`], targets[name].rclone);
    return performance.now() - started;
  }

  /** @param {Name} name @param {number} round */
  async function rcloneDown(name, round) {
    const back = path.join(work, `back-${name}-${round}`);
    const started = performance.now();
    await rclone(['sync', `bench:sync-${round}`, back], targets[name].rclone);
    const ms = performance.now() - started;
    await rclone(['check', smallTree, back], {});
    rmSync(back, { recursive: true, force: true });
    return ms;
  }

  /** Removes the round's big file and synced folder from both servers (Atrium: DELETE, then the trash emptied). */
  async function cleanUp(/** @type {number} */ round) {
    for (const rel of [...(runs('put') ? [`big-${round}.bin`] : []), ...(runs('rclone') ? [`sync-${round}/`] : [])]) {
      const removed = await send({
        port: ATRIUM_PORT,
        method: 'DELETE',
        path: targets.atrium.url(rel),
        headers: { authorization: basic },
        writeBody: (req) => req.end(),
      });
      if (removed.status !== 204) throw new Error(`DELETE ${rel}: ${removed.status} ${removed.body}`);
      rmSync(path.join(davRoot, rel), { recursive: true, force: true });
    }
    if (runs('put') || runs('rclone')) await api('DELETE', '/api/trash');
  }

  // --- the rounds ---------------------------------------------------------------------------------------------------
  const rate = (/** @type {number} */ ms) => mib(size) / (ms / 1000);
  const seconds = (/** @type {number} */ ms) => ms / 1000;
  const fmtRate = (/** @type {number} */ ms) => `${rate(ms).toFixed(0)} MiB/s`;
  const fmtMiB = (/** @type {number} */ bytes) => `${mib(bytes).toFixed(0)} MiB`;
  const fmtKiB = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
  /** @type {Record<string, Record<Name, number[]>>} */
  const all = {};
  const record = (/** @type {string} */ key, /** @type {Name} */ name, /** @type {number[]} */ ...values) => {
    all[key] ??= { atrium: [], nginx: [] };
    all[key][name].push(...values);
  };
  /** @type {{ round: number, load: number[], atrium: Record<string, unknown>, nginx: Record<string, unknown> }[]} */
  const perRound = [];

  console.log(
    `${only.length === 0 ? '' : `only ${only.join(', ')}; `}payload ${sizeMiB} MiB, ${rounds} rounds, PROPFIND of ${entries} files ×${PROPFIND_RUNS} per body, rclone ${smallFiles} files; load average at start ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  for (let round = 1; round <= rounds; round += 1) {
    /** @type {Name[]} */
    const order = round % 2 === 1 ? ['atrium', 'nginx'] : ['nginx', 'atrium'];
    const load = loadavg();
    /** @type {Record<Name, Record<string, any>>} */
    const r = { atrium: {}, nginx: {} };
    for (const name of runs('put') ? order : []) {
      await settle(atrium.pid);
      r[name].put = await putBig(name, round);
    }
    for (const name of runs('get') ? order : []) {
      await settle(atrium.pid);
      r[name].get = await getBig(name, round);
    }
    for (const [key, body] of runs('propfind') ? PROPFIND_BODIES : []) {
      for (const name of order) {
        await settle(atrium.pid);
        r[name][key] = await propfind(name, body);
      }
    }
    for (const name of runs('rclone') ? order : []) {
      await settle(atrium.pid);
      r[name].up = await rcloneUp(name, round);
    }
    for (const name of runs('rclone') ? order : []) {
      await settle(atrium.pid);
      r[name].down = await rcloneDown(name, round);
    }
    await cleanUp(round);
    for (const name of order) {
      const x = r[name];
      if (runs('put')) {
        record('put', name, x.put.ms);
        record('putRss', name, x.put.growth);
      }
      if (runs('get')) {
        record('get', name, x.get.ms);
        record('getRss', name, x.get.growth);
      }
      for (const key of runs('propfind') ? ['allprop', 'rclone'] : []) {
        record(key, name, ...x[key].ms);
        record(`${key}Median`, name, median(x[key].ms));
        record(`${key}Bytes`, name, x[key].bytes);
        record(`${key}Rss`, name, x[key].growth);
      }
      if (runs('rclone')) {
        record('up', name, x.up);
        record('down', name, x.down);
      }
    }
    perRound.push({ round, load, ...r });
    const a = r.atrium;
    const n = r.nginx;
    const coldOf = (/** @type {Record<string, any>} */ x) =>
      /** @type {number[]} */ (x.allprop.cold).map((ms) => ms.toFixed(0)).join(' ');
    const pf = (/** @type {string} */ key) =>
      `${median(a[key].ms).toFixed(0)} / ${median(n[key].ms).toFixed(0)} ms (p99 ${percentile(a[key].ms, 99).toFixed(0)} / ${percentile(n[key].ms, 99).toFixed(0)}, ${fmtKiB(a[key].bytes)} / ${fmtKiB(n[key].bytes)}, RSS +${fmtMiB(a[key].growth)} / +${fmtMiB(n[key].growth)})`;
    console.log(
      `round ${round} (${order.join(' first, ')} second; load ${load.map((x) => x.toFixed(2)).join(' ')}), atrium / nginx:` +
        (runs('put')
          ? `\n  PUT ${fmtRate(a.put.ms)} / ${fmtRate(n.put.ms)} = ${((n.put.ms / a.put.ms) * 100).toFixed(0)}% (RSS +${fmtMiB(a.put.growth)} / +${fmtMiB(n.put.growth)})`
          : '') +
        (runs('get')
          ? `\n  GET ${fmtRate(a.get.ms)} / ${fmtRate(n.get.ms)} = ${((n.get.ms / a.get.ms) * 100).toFixed(0)}% (RSS +${fmtMiB(a.get.growth)} / +${fmtMiB(n.get.growth)})`
          : '') +
        (runs('propfind') ? `\n  PROPFIND allprop ${pf('allprop')}\n  PROPFIND rclone's body ${pf('rclone')}` : '') +
        (runs('propfind') && round === 1
          ? `\n  (untimed first ${PROPFIND_WARM} PROPFINDs allprop: ${coldOf(a)} / ${coldOf(n)} ms)`
          : '') +
        (runs('rclone')
          ? `\n  rclone sync up ${(a.up / 1000).toFixed(1)} / ${(n.up / 1000).toFixed(1)} s, down ${(a.down / 1000).toFixed(1)} / ${(n.down / 1000).toFixed(1)} s`
          : ''),
    );
  }
  const m = (/** @type {string} */ key, /** @type {Name} */ name) => median(all[key]?.[name] ?? []);
  /** The smallest and largest value of a series, each as `f` turns it into a figure (a rate, seconds). */
  const spread = (/** @type {string} */ key, /** @type {Name} */ name, /** @type {(x: number) => number} */ f) => {
    const ys = (all[key]?.[name] ?? []).map(f);
    return `${Math.min(...ys).toFixed(f === seconds ? 1 : 0)}–${Math.max(...ys).toFixed(f === seconds ? 1 : 0)}`;
  };
  const secs = (/** @type {number} */ ms) => (ms / 1000).toFixed(1);
  const maxOf = (/** @type {string} */ key, /** @type {Name} */ name) => Math.max(...(all[key]?.[name] ?? []));
  console.log(
    `\nmedian over ${rounds} rounds (spread min–max), atrium / nginx; load average at the end ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}` +
      (runs('put')
        ? `\n  PUT ${fmtRate(m('put', 'atrium'))} (${spread('put', 'atrium', rate)}) / ${fmtRate(m('put', 'nginx'))} (${spread('put', 'nginx', rate)}) = ${((m('put', 'nginx') / m('put', 'atrium')) * 100).toFixed(0)}%, RSS max +${fmtMiB(maxOf('putRss', 'atrium'))} / +${fmtMiB(maxOf('putRss', 'nginx'))}`
        : '') +
      (runs('get')
        ? `\n  GET ${fmtRate(m('get', 'atrium'))} (${spread('get', 'atrium', rate)}) / ${fmtRate(m('get', 'nginx'))} (${spread('get', 'nginx', rate)}) = ${((m('get', 'nginx') / m('get', 'atrium')) * 100).toFixed(0)}%, RSS max +${fmtMiB(maxOf('getRss', 'atrium'))} / +${fmtMiB(maxOf('getRss', 'nginx'))}`
        : '') +
      (runs('propfind') ? ['allprop', 'rclone'] : [])
        .map(
          (key) =>
            `\n  PROPFIND ${key === 'allprop' ? 'allprop' : "rclone's body"}: p50 ${percentile(all[key]?.atrium ?? [], 50).toFixed(0)} / ${percentile(all[key]?.nginx ?? [], 50).toFixed(0)} ms, p99 ${percentile(all[key]?.atrium ?? [], 99).toFixed(0)} / ${percentile(all[key]?.nginx ?? [], 99).toFixed(0)} ms (${(percentile(all[key]?.atrium ?? [], 99) / percentile(all[key]?.nginx ?? [], 99)).toFixed(2)}×), round medians ${spread(`${key}Median`, 'atrium', (x) => x)} / ${spread(`${key}Median`, 'nginx', (x) => x)} ms, ${fmtKiB(m(`${key}Bytes`, 'atrium'))} / ${fmtKiB(m(`${key}Bytes`, 'nginx'))}, RSS max +${fmtMiB(maxOf(`${key}Rss`, 'atrium'))} / +${fmtMiB(maxOf(`${key}Rss`, 'nginx'))}`,
        )
        .join('') +
      (runs('rclone')
        ? `\n  rclone sync up ${secs(m('up', 'atrium'))} s (${spread('up', 'atrium', seconds)}) / ${secs(m('up', 'nginx'))} s (${spread('up', 'nginx', seconds)}), down ${secs(m('down', 'atrium'))} s (${spread('down', 'atrium', seconds)}) / ${secs(m('down', 'nginx'))} s (${spread('down', 'nginx', seconds)})`
        : ''),
  );
} finally {
  await stopNginx();
  await atrium.stop();
  rmSync(work, { recursive: true, force: true });
}

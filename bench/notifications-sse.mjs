// Notification fan-out over SSE: Atrium side by side with nginx + nchan (the reference pub/sub server).
// For each server: N concurrent SSE subscribers, then M messages published one after another; every
// subscriber must receive every message. Records connect time, publish-to-delivery latency (p50/p99,
// measured in this process from just before the publish request to the event's arrival), lost
// messages and the server's resident memory. Loopback only, bounded in time; stops by itself.
//
// Usage: npm run build && node bench/notifications-sse.mjs [subscribers=10000] [messages=100] [rounds=3]
// Each round starts both servers afresh, in alternating order (nchan first in odd rounds); the summary is
// the median over rounds of each figure and of the per-round ratios Atrium / nchan.
// BENCH_ATRIUM_BASELINE=<main.js>[,<label>=<main.js>…] adds other builds of Atrium to every round (A/B in one run).
// BENCH_CPU_PROF=<dir> runs Atrium with `--cpu-prof` into that folder (one profile per round).
// Needs Debian nginx + libnginx-mod-nchan, and `ulimit -n` above the subscriber count (+ some).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUBSCRIBERS = Number(process.argv[2] ?? 10_000);
const MESSAGES = Number(process.argv[3] ?? 100);
const ROUNDS = Number(process.argv[4] ?? 3);
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const ATRIUM_PORT = 3291;
const NCHAN_PORT = 3292;
const CONNECT_CONCURRENCY = 200;
const DELIVERY_TIMEOUT_MS = 10_000;
const RUN_LIMIT_MS = ROUNDS * 10 * 60_000;
const NCHAN_MODULE = '/usr/lib/nginx/modules/ngx_nchan_module.so';

/** Servers this run started: stopped on every way out. @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();
const killChildren = () => children.forEach((child) => child.exitCode === null && child.kill('SIGKILL'));
process.on('exit', killChildren);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killChildren();
    process.exit(130);
  });
}
const deadline = setTimeout(() => {
  console.error('benchmark exceeded its time limit; stopping');
  process.exit(2);
}, RUN_LIMIT_MS);
deadline.unref();

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** @param {number[]} values @param {number} p */
const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
/** @param {number} ms */
const fmt = (ms) => `${ms.toFixed(1)} ms`;

/**
 * `read(p)` summed over a process and its children (nginx master + workers).
 * @param {number | undefined} pid @param {(p: number | string | undefined) => number} read
 */
function sumOverChildren(pid, read) {
  let total = read(pid);
  try {
    for (const task of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) {
      total += read(task);
    }
  } catch {
    // no children file
  }
  return total;
}

/**
 * Resident memory (KiB) of a process and its children (nginx master + workers).
 * @param {number | undefined} pid
 */
function rssKiB(pid) {
  return sumOverChildren(pid, (p) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      return 0;
    }
  });
}

/**
 * CPU time (ms, user + system) used so far by a process and its children (nginx master + workers): what a server
 * spends, which moves much less with other people's load on a shared machine than wall time does.
 * @param {number | undefined} pid
 */
function cpuMs(pid) {
  return sumOverChildren(pid, (p) => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return ((Number(fields[11]) || 0) + (Number(fields[12]) || 0)) * (1000 / CLOCK_TICKS);
    } catch {
      return 0;
    }
  });
}
const CLOCK_TICKS = 100;

/** @param {string} url */
async function waitForHttp(url, timeoutMs = 30_000) {
  const started = Date.now();
  for (;;) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`${url} did not answer in time`);
    await sleep(50);
  }
}

/** @param {string} url */
async function waitForReady(url, timeoutMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const response = await fetch(url).catch(() => undefined);
    await response?.arrayBuffer();
    if (response?.status === 200) return;
    if (Date.now() - started > timeoutMs) throw new Error(`${url} not ready in time`);
    await sleep(200);
  }
}

/** Subscribers whose connection failed after it was established (should stay 0). */
const dropped = { count: 0 };

/**
 * One SSE subscriber on a raw socket (an HTTP client per connection would
 * dominate the measurement). Finds `bench:<n>` in what arrives; ids only go up.
 * @param {number} port
 * @param {string} requestPath
 * @param {Record<string, string>} headers
 * @param {(now: number) => void} onFirstBytes
 * @param {(n: number, now: number) => void} onMessage
 * @returns {Promise<net.Socket>}
 */
function subscribe(port, requestPath, headers, onFirstBytes, onMessage) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, noDelay: true });
    let carry = '';
    let last = -1;
    let first = true;
    socket.setEncoding('utf8');
    socket.setTimeout(15_000, () => {
      if (first) socket.destroy(new Error('no answer in 15 s'));
    });
    socket.on('connect', () => {
      const extra = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.write(
        `GET ${requestPath} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n${extra}\r\n`,
      );
    });
    socket.on('data', (/** @type {string} */ chunk) => {
      const now = performance.now();
      if (first) {
        first = false;
        if (!/^HTTP\/1\.1 200/.test(chunk)) {
          socket.destroy();
          reject(new Error(`subscriber refused: ${chunk.split('\r\n')[0]}`));
          return;
        }
        socket.setTimeout(0);
        onFirstBytes(now);
        resolve(socket);
      }
      const text = carry + chunk;
      const pattern = /bench:(\d+)/g;
      let match;
      let end = 0;
      while ((match = pattern.exec(text))) {
        const n = Number(match[1]);
        end = pattern.lastIndex;
        if (n > last) {
          last = n;
          onMessage(n, now);
        }
      }
      carry = text.slice(Math.max(end, text.length - 32));
    });
    socket.on('error', (error) => {
      if (first) reject(error);
      else dropped.count += 1;
    });
  });
}

/**
 * Connects N subscribers, publishes M messages one by one, and measures.
 * @param {string} name
 * @param {{ port: number, subscribePath: string, headers: Record<string, string>, publish: (message: string) => Promise<void>, pid: number | undefined }} target
 */
async function measure(name, { port, subscribePath, headers, publish, pid }) {
  dropped.count = 0;
  await sleep(1000);
  const rssIdle = rssKiB(pid);
  /** @type {number[]} */
  const connectTimes = [];
  /** @type {net.Socket[]} */
  const sockets = [];
  const delivered = Array.from({ length: MESSAGES }, () => 0);
  /** @type {number[]} */
  const latencies = [];
  /** @type {number[]} */
  const publishedAt = [];
  /** @type {{ n: number, resolve: () => void } | null} */
  let waiting = null;

  /** @param {number} n @param {number} now */
  const onMessage = (n, now) => {
    const sentAt = publishedAt[n];
    if (n >= MESSAGES || sentAt === undefined) return;
    latencies.push(now - sentAt);
    const count = (delivered[n] ?? 0) + 1;
    delivered[n] = count;
    if (waiting && waiting.n === n && count === SUBSCRIBERS) waiting.resolve();
  };

  const connectStarted = performance.now();
  const cpuBefore = cpuMs(pid);
  let connectRetries = 0;
  let next = 0;
  const worker = async () => {
    while (next < SUBSCRIBERS) {
      next += 1;
      const started = performance.now();
      // A reset while the accept queue is full is retried (and counted); the connect time includes retries.
      for (let attempt = 1; ; attempt++) {
        try {
          const socket = await subscribe(
            port,
            subscribePath,
            headers,
            (now) => connectTimes.push(now - started),
            onMessage,
          );
          sockets.push(socket);
          break;
        } catch (error) {
          connectRetries += 1;
          if (attempt >= 5) throw error;
          await sleep(50 * attempt);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECT_CONCURRENCY }, worker));
  const connectTotal = performance.now() - connectStarted;
  const connectCpu = cpuMs(pid) - cpuBefore;
  console.error(`${name}: ${sockets.length} subscribers connected (${connectRetries} retried connects)`);
  await sleep(500);
  const rssConnected = rssKiB(pid);

  const publishStarted = performance.now();
  for (let n = 0; n < MESSAGES; n++) {
    const done = new Promise((/** @type {(value?: unknown) => void} */ resolve) => (waiting = { n, resolve }));
    publishedAt[n] = performance.now();
    await publish(`bench:${n}`);
    await Promise.race([done, sleep(DELIVERY_TIMEOUT_MS)]);
    waiting = null;
  }
  const publishTotal = performance.now() - publishStarted;
  await sleep(500);
  const rssAfter = rssKiB(pid);
  for (const socket of sockets) socket.destroy();

  const expected = SUBSCRIBERS * MESSAGES;
  const received = delivered.reduce((a, b) => a + b, 0);
  return {
    name,
    subscribers: sockets.length,
    connectRetries,
    connectTotalMs: connectTotal,
    connectCpuMs: connectCpu,
    connectP50: percentile(connectTimes, 50),
    connectP99: percentile(connectTimes, 99),
    deliveryP50: percentile(latencies, 50),
    deliveryP99: percentile(latencies, 99),
    deliveryMax: latencies.reduce((a, b) => Math.max(a, b), 0),
    publishTotalMs: publishTotal,
    lost: expected - received,
    droppedConnections: dropped.count,
    perConnectionKiB: (rssConnected - rssIdle) / Math.max(1, sockets.length),
    rssIdleMiB: rssIdle / 1024,
    rssConnectedMiB: rssConnected / 1024,
    rssAfterMiB: rssAfter / 1024,
  };
}

/** @param {import('node:child_process').ChildProcess} child */
async function stop(child) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(15_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** @param {string} workdir */
async function runNchan(workdir) {
  if (!existsSync(NCHAN_MODULE))
    throw new Error('nginx nchan module missing: apt-get install nginx libnginx-mod-nchan');
  const conf = path.join(workdir, 'nginx.conf');
  writeFileSync(
    conf,
    `load_module ${NCHAN_MODULE};
daemon off;
master_process on;
worker_processes 1;
worker_rlimit_nofile ${2 * SUBSCRIBERS + 2000};
pid ${workdir}/nginx.pid;
error_log ${workdir}/error.log warn;
events { worker_connections ${2 * SUBSCRIBERS + 1000}; }
http {
  access_log off;
  client_body_temp_path ${workdir}/body;
  proxy_temp_path ${workdir}/proxy;
  fastcgi_temp_path ${workdir}/fastcgi;
  uwsgi_temp_path ${workdir}/uwsgi;
  scgi_temp_path ${workdir}/scgi;
  server {
    listen 127.0.0.1:${NCHAN_PORT} backlog=4096;
    location = /health { return 200 "ok"; }
    location = /sub { nchan_subscriber eventsource; nchan_channel_id bench; }
    location = /pub { nchan_publisher; nchan_channel_id bench; nchan_message_buffer_length ${MESSAGES + 10}; }
  }
}
`,
  );
  const child = spawn('nginx', ['-p', workdir, '-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] });
  children.add(child);
  try {
    await waitForHttp(`http://127.0.0.1:${NCHAN_PORT}/health`);
    return await measure('nginx + nchan (1 worker)', {
      port: NCHAN_PORT,
      subscribePath: '/sub',
      headers: {},
      pid: child.pid,
      publish: async (/** @type {string} */ message) => {
        const response = await fetch(`http://127.0.0.1:${NCHAN_PORT}/pub`, { method: 'POST', body: message });
        await response.arrayBuffer();
        if (response.status >= 300) throw new Error(`nchan publish answered ${response.status}`);
      },
    });
  } finally {
    await stop(child);
  }
}

/** @param {string} workdir */
async function runAtrium(workdir, server = path.join(root, 'apps/server/dist/main.js'), name = 'Atrium') {
  if (!existsSync(server)) throw new Error('build first: npm run build');
  const password = 'bench-password-123';
  const profile = CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROF_DIR)}`] : [];
  const child = spawn(process.execPath, [...profile, server], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      SESSION_SECRET: 'bench-session-secret-bench-session-secret',
      PORT: String(ATRIUM_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(workdir, 'data'),
      ADMIN_PASSWORD: password,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  try {
    await waitForHttp(`http://127.0.0.1:${ATRIUM_PORT}/healthz`);
    // The idle figure is taken once every readiness probe is ok (nothing still loading in the background).
    await waitForReady(`http://127.0.0.1:${ATRIUM_PORT}/readyz`);
    const login = await fetch(`http://127.0.0.1:${ATRIUM_PORT}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status}`);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    return await measure(name, {
      port: ATRIUM_PORT,
      subscribePath: '/public/api/notifications/stream',
      headers: { Cookie: cookie },
      pid: child.pid,
      publish: async (/** @type {string} */ message) => {
        const response = await fetch(`http://127.0.0.1:${ATRIUM_PORT}/public/api/notifications`, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ message, type: 'admin' }),
        });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`Atrium publish answered ${response.status}`);
      },
    });
  } finally {
    await stop(child);
  }
}

/** @param {number[]} values */
const median = (values) => percentile(values, 50);

const workdir = mkdtempSync(path.join(tmpdir(), 'atrium-bench-sse-'));
/** The servers of a round: nchan, this build, and optionally another build of Atrium (A/B in the same run). */
/** @type {{ key: string, run: (workdir: string) => ReturnType<typeof measure> }[]} */
const servers = [
  { key: 'nchan', run: runNchan },
  { key: 'Atrium', run: (dir) => runAtrium(dir) },
];
// BENCH_ATRIUM_BASELINE=<main.js>[,<label>=<main.js>…]: other builds of Atrium in every round.
for (const [i, entry] of (process.env.BENCH_ATRIUM_BASELINE ?? '').split(',').filter(Boolean).entries()) {
  const [label, file] = entry.includes('=') ? entry.split('=', 2) : [i === 0 ? 'baseline' : `baseline ${i + 1}`, entry];
  const key = `Atrium (${label})`;
  servers.push({ key, run: (dir) => runAtrium(dir, path.resolve(file ?? ''), key) });
}
try {
  console.log(`${SUBSCRIBERS} SSE subscribers, ${MESSAGES} messages each, ${ROUNDS} rounds, loopback\n`);
  /** @type {{ round: number, load: string, results: Record<string, Awaited<ReturnType<typeof measure>>> }[]} */
  const rounds = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // Rotate the order, so no server always meets the machine in the same state.
    const order = servers.map((_, i) => servers[(i + round - 1) % servers.length]);
    /** @type {Record<string, Awaited<ReturnType<typeof measure>>>} */
    const results = {};
    const load = loadavg()[0]?.toFixed(1) ?? '';
    for (const server of order) {
      if (!server) continue;
      const result = await server.run(workdir);
      results[server.key] = result;
      console.log(
        `round ${round}, ${result.name}: connected ${result.subscribers} in ${fmt(result.connectTotalMs)} ` +
          `(per connection p50 ${fmt(result.connectP50)}, p99 ${fmt(result.connectP99)}; ` +
          `server CPU ${result.connectCpuMs.toFixed(0)} ms); delivery p50 ${fmt(result.deliveryP50)}, p99 ${fmt(result.deliveryP99)}, max ${fmt(result.deliveryMax)}; ` +
          `lost ${result.lost}; connects retried ${result.connectRetries}, dropped ${result.droppedConnections}; ` +
          `RSS idle ${result.rssIdleMiB.toFixed(0)} MiB, with subscribers ${result.rssConnectedMiB.toFixed(0)} MiB, ` +
          `after publishing ${result.rssAfterMiB.toFixed(0)} MiB; ${result.perConnectionKiB.toFixed(1)} KiB per stream`,
      );
    }
    rounds.push({ round, load, results });
  }
  console.log(
    '\n| round | load avg | server | connect all: server / nchan | server CPU to connect: server / nchan | delivery p99: server / nchan | memory per stream: server / nchan | lost | RSS idle → connected |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  /** @param {number} a @param {number} b @param {(v: number) => string} f */
  const cell = (a, b, f) => `${f(a)} / ${f(b)} = ${(a / b).toFixed(2)}×`;
  const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(2)} s`;
  const ms0 = (/** @type {number} */ ms) => `${ms.toFixed(0)} ms`;
  const kib = (/** @type {number} */ v) => `${v.toFixed(1)} KiB`;
  for (const { key } of servers.filter((s) => s.key !== 'nchan')) {
    /** @type {Record<'connect' | 'cpu' | 'p99' | 'memory', number[]>} */
    const ratios = { connect: [], cpu: [], p99: [], memory: [] };
    for (const { round, load, results } of rounds) {
      const atrium = results[key];
      const nchan = results.nchan;
      if (!atrium || !nchan) continue;
      ratios.connect.push(atrium.connectTotalMs / nchan.connectTotalMs);
      ratios.cpu.push(atrium.connectCpuMs / nchan.connectCpuMs);
      ratios.p99.push(atrium.deliveryP99 / nchan.deliveryP99);
      ratios.memory.push(atrium.perConnectionKiB / nchan.perConnectionKiB);
      console.log(
        `| ${round} | ${load} | ${key} | ${cell(atrium.connectTotalMs, nchan.connectTotalMs, seconds)} | ` +
          `${cell(atrium.connectCpuMs, nchan.connectCpuMs, ms0)} | ${cell(atrium.deliveryP99, nchan.deliveryP99, fmt)} | ` +
          `${cell(atrium.perConnectionKiB, nchan.perConnectionKiB, kib)} | ${atrium.lost + nchan.lost} | ` +
          `${atrium.rssIdleMiB.toFixed(0)} → ${atrium.rssConnectedMiB.toFixed(0)} MiB (nchan ${nchan.rssIdleMiB.toFixed(0)} → ${nchan.rssConnectedMiB.toFixed(0)} MiB) |`,
      );
    }
    console.log(
      `| **median** | | **${key}** | **${median(ratios.connect).toFixed(2)}×** | **${median(ratios.cpu).toFixed(2)}×** | ` +
        `**${median(ratios.p99).toFixed(2)}×** | **${median(ratios.memory).toFixed(2)}×** | | |`,
    );
  }
} finally {
  rmSync(workdir, { recursive: true, force: true });
}

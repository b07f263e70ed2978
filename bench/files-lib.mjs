// Shared helpers for the files benchmarks (loopback only; every run stops by itself).
import { spawn } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ADMIN_PASSWORD = 'bench-password';

/**
 * Spawns the built server (npm run build first) on 127.0.0.1:`port` in production mode with the bench admin
 * password; `env` adds or overrides variables. It does not wait for it.
 * @param {{ port: number, dataDir: string, env?: Record<string, string> }} options
 */
export function spawnAtrium({ port, dataDir, env = {} }) {
  // In production with PostgreSQL the push keys must be given (every instance shares them): make a pair.
  const vapid =
    env.DATABASE_URL?.startsWith('postgres') && !env.VAPID_PUBLIC_KEY
      ? (({ publicKey, privateKey }) => ({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey }))(
          createRequire(path.join(root, 'apps/server/package.json'))('web-push').generateVAPIDKeys(),
        )
      : {};
  return spawn(
    process.execPath,
    [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), path.join(root, 'apps/server/dist/main.js')],
    {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_PASSWORD,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        SESSION_SECRET: 'bench-session-secret-bench-session-secret',
        ...vapid,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/**
 * `spawnAtrium` with /metrics on (it is off unless METRICS_TOKEN is set); the server stops and `dataDir` is
 * removed when the bench exits. `scrapeMetrics()` answers the Prometheus text.
 * @param {{ port: number, dataDir: string, env?: Record<string, string> }} options
 */
export function spawnMeteredAtrium({ port, dataDir, env = {} }) {
  const server = spawnAtrium({ port, dataDir, env: { METRICS_TOKEN, ...env } });
  process.on('exit', () => {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });
  const scrapeMetrics = async () =>
    (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return { server, scrapeMetrics };
}

/**
 * Waits until the readiness probes named in `checks` are ok (AI models load in the background).
 * @param {number} port @param {string[]} checks @param {number} timeoutMs
 */
export async function waitReady(port, checks, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
    const body = /** @type {{ checks: Record<string, { status: string }> } | null} */ (
      response ? await response.json().catch(() => null) : null
    );
    if (body && checks.every((name) => body.checks[name]?.status === 'ok')) return;
  }
  throw new Error(`the AI engines did not become ready within ${timeoutMs / 1000} s`);
}

/** Signs in as the built-in admin; answers the session cookie. @param {number} port */
export async function signInAdmin(port) {
  const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  if (!login.ok) throw new Error(`login failed: ${login.status}`);
  return (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/**
 * Starts the built server (`spawnAtrium`), waits for /healthz and signs in as the admin.
 * @param {{ port: number, dataDir: string, env?: Record<string, string> }} options
 */
export async function startAtrium({ port, dataDir, env = {} }) {
  const child = spawnAtrium({ port, dataDir, env });
  const started = Date.now();
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      // not yet
    }
    if (Date.now() - started > 30_000) throw new Error('server did not start in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Wait until every readiness probe is ok (the AI models warm up in the background after start-up),
  // so that a memory baseline taken now does not count the models loading during a transfer.
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
    const body = /** @type {{ checks?: Record<string, { status: string }> } | null} */ (
      ready ? await ready.json().catch(() => null) : null
    );
    if (body?.checks && Object.values(body.checks).every((check) => check.status === 'ok')) break;
    if (Date.now() - started > 120_000) throw new Error('server not ready in 120 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const cookie = await signInAdmin(port);
  return {
    pid: child.pid ?? 0,
    cookie,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/**
 * Resident set size of a process, in bytes (Linux /proc).
 * @param {number} pid
 */
export function rssOf(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/**
 * Samples a process's RSS every 50 ms until stopped; the returned function stops and gives the peak.
 * @param {number} pid
 */
export function sampleRss(pid) {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // exited
    }
  }, 50);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

/**
 * Sends a request whose body comes from `writeBody(req)`; resolves with status, body text and elapsed ms.
 * @param {{ port: number, method: string, path: string, headers: http.OutgoingHttpHeaders, writeBody: (req: http.ClientRequest) => void }} options
 * @returns {Promise<{ status: number | undefined, headers: http.IncomingHttpHeaders, body: string, ms: number }>}
 */
export function send({ port, method, path: urlPath, headers, writeBody }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
          ms: performance.now() - started,
        }),
      );
    });
    req.on('error', reject);
    writeBody(req);
  });
}

/**
 * Downloads and discards a body (GET, or `method` with a small `body`); resolves with bytes and elapsed ms.
 * `onData` sees every chunk (a hash, a file) without keeping it.
 * @param {{ port: number, path: string, headers?: http.OutgoingHttpHeaders, method?: string, body?: string, onData?: (chunk: Buffer) => void }} options
 * @returns {Promise<{ status: number | undefined, headers: http.IncomingHttpHeaders, bytes: number, ms: number }>}
 */
export function drain({ port, path: urlPath, headers = {}, method = 'GET', body, onData }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .request({ host: '127.0.0.1', port, path: urlPath, headers, method }, (res) => {
        let bytes = 0;
        res.on('data', (/** @type {Buffer} */ chunk) => {
          bytes += chunk.length;
          onData?.(chunk);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, bytes, ms: performance.now() - started }),
        );
      })
      .on('error', reject)
      .end(body);
  });
}

/**
 * Uploads one file as a multipart form to `POST /api/files/upload<query>` with `headers` (the session cookie…): the
 * bytes of `file` on disk, streamed, or `bytes` from memory; `size` is their length. Resolves as `send` does.
 * @param {{ port: number, headers: http.OutgoingHttpHeaders, query?: string, name: string, size: number, file?: string, bytes?: Buffer }} options
 */
export function uploadMultipart({ port, headers, query = '', name, size, file, bytes }) {
  const form = multipart(name, size);
  return send({
    port,
    method: 'POST',
    path: `/api/files/upload${query}`,
    headers: { ...headers, 'content-type': form.contentType, 'content-length': form.length },
    writeBody: (req) =>
      file
        ? pipeFile(req, file, form.head, form.tail)
        : req.end(Buffer.concat([form.head, bytes ?? Buffer.alloc(0), form.tail])),
  });
}

/**
 * JSON calls to the server on `port` as `headers` (a session cookie), which a call may replace with its own; a status
 * other than 2xx throws. Resolves with the JSON answer.
 * @param {number} port @param {Record<string, string>} headers
 */
export const jsonApi =
  (port, headers) =>
  /** @param {string} method @param {string} url @param {unknown} [body] @param {Record<string, string>} [as] @returns {Promise<any>} */
  async (method, url, body, as = headers) => {
    const answer = await fetch(`http://127.0.0.1:${port}${url}`, {
      method,
      headers: { ...as, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`${method} ${url}: ${answer.status} ${await answer.text()}`);
    return answer.json();
  };

/**
 * Runs `task(index)` for every index below `count`, `workers` at a time; resolves once all are done.
 * @param {number} count @param {number} workers @param {(index: number) => Promise<unknown>} task
 */
export async function forEachConcurrently(count, workers, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/**
 * Multipart framing around one file part named "file".
 * @param {string} fileName
 * @param {number} size
 */
export function multipart(fileName, size) {
  const boundary = `----atrium-bench-${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    head,
    tail,
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + size + tail.length,
  };
}

/**
 * @param {number[]} values
 * @param {number} p
 */
export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
/** @param {number} bytes */
export const mib = (bytes) => bytes / 1024 / 1024;

/** `x` rounded to `d` decimals. @param {number} x */
export const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** The median (the mean of the middle two for an even count). @param {number[]} xs */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return (s.length % 2 ? s[m] : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2) ?? 0;
};

/**
 * Starts Debian's nginx serving `dir/www` (sendfile on, no access log) on loopback `port`, the reference the
 * benchmarks compare with; resolves once it answers, with a stop function. `main`, `http` and `server` add directives
 * to those blocks (a `load_module`, a body size limit, an upload location).
 * @param {{ dir: string, port: number, main?: string, http?: string, server?: string }} options
 */
export async function startStaticNginx({ dir, port, main = '', http: httpExtra = '', server: serverExtra = '' }) {
  mkdirSync(path.join(dir, 'www'), { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `${main}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  sendfile on;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  ${httpExtra}
  server {
    listen 127.0.0.1:${port};
    root ${dir}/www;
    ${serverExtra}
  }
}
`,
  );
  const nginx = spawn('/usr/sbin/nginx', ['-c', conf, '-p', dir], { stdio: 'inherit' });
  for (let i = 0; i < 100; i += 1) {
    try {
      await drain({ port, path: '/' });
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return async () => {
    nginx.kill('SIGQUIT');
    await new Promise((resolve) => nginx.once('exit', resolve));
  };
}

/**
 * Writes `size` bytes of fresh random data to `file`: every block is new, so nothing below (compression,
 * deduplication) can store it more cheaply than a real file.
 * @param {string} file
 * @param {number} size
 */
export function writeRandomPayload(file, size) {
  const block = Buffer.allocUnsafe(16 * 1024 * 1024);
  const fd = openSync(file, 'w');
  for (let written = 0; written < size; written += block.length) {
    randomFillSync(block);
    writeSync(fd, block, 0, Math.min(block.length, size - written));
  }
  closeSync(fd);
}

/**
 * Streams `file` as the request body, between optional `before` and `after` bytes (a multipart form's head and tail).
 * @param {http.ClientRequest} req
 * @param {string} file
 * @param {Buffer} [before]
 * @param {Buffer} [after]
 */
export function pipeFile(req, file, before, after) {
  if (before) req.write(before);
  const stream = createReadStream(file, { highWaterMark: 1024 * 1024 });
  stream.pipe(req, { end: false });
  stream.on('end', () => (after ? req.end(after) : req.end()));
}

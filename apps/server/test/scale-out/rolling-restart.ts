import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { NEXT_CURSOR_HEADER, type FileRecord, type Notification } from '@atrium/contracts';
import pg from 'pg';
import { FAIL_TIMEOUT_MS, type Topology } from './topology';

/**
 * A rolling restart under load, through nginx: `clients` notification streams
 * (each reconnects after the last id it saw whenever its stream ends), a publisher
 * and two uploaders run while each instance in turn is stopped gracefully (SIGTERM),
 * started again and waited for on /readyz. Every loop is bounded in count and time.
 */
export interface RollingRestartReport {
  /** Notification ids stored during the run that some client never received (with the client count). */
  lostNotifications: string[];
  duplicateNotifications: string[];
  /** Acknowledged uploads that do not list or download byte-exact afterwards. */
  lostUploads: string[];
  /** Clients that had not caught up with the last notification in time. */
  clientsBehind: number;
  /** Stream (GET) connections that failed: nginx retries those on the other instance. */
  streamConnectionErrors: number;
  summary: Record<string, number | string>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const MAX_RECONNECTS = 50;
/** `line (n×)` for each distinct line. */
const countedLines = (lines: string[]) => {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return [...counts].map(([line, n]) => `${line} (${n}×)`).join('; ');
};

class StreamClient {
  ids: string[] = [];
  attempts = 0;
  failedAttempts = 0;
  connected = false;
  private stopped = false;
  private request: http.ClientRequest | undefined;
  constructor(
    private readonly port: number,
    private readonly cookie: string,
    private lastId: string,
    /** Where failed attempts are described (status or error). */
    private readonly failures: string[],
  ) {}

  connect(): void {
    if (this.stopped) return;
    this.attempts++;
    let finished = false;
    const retry = (failure?: string) => {
      if (finished) return;
      finished = true;
      this.connected = false;
      if (failure) {
        this.failedAttempts++;
        this.failures.push(`stream ${failure}`);
      }
      if (!this.stopped && this.attempts <= MAX_RECONNECTS) setTimeout(() => this.connect(), 100 + Math.random() * 400);
    };
    const request = http.get({
      host: '127.0.0.1',
      port: this.port,
      path: '/public/api/notifications/stream',
      agent: false,
      headers: { cookie: this.cookie, accept: 'text/event-stream', 'last-event-id': this.lastId },
    });
    this.request = request;
    request.on('error', (error) => retry(String(error)));
    request.on('response', (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        retry(String(response.statusCode));
        return;
      }
      this.connected = true;
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: ?(.*)$/m.exec(block)?.[1];
          if (id !== undefined && /^data:/m.test(block)) {
            this.ids.push(id);
            this.lastId = id;
          }
        }
      });
      response.on('error', () => undefined);
      // A stream the server ends (shutdown) or that breaks (crash) is resumed: not a failed attempt.
      response.on('close', () => retry());
    });
  }

  stop(): void {
    this.stopped = true;
    this.request?.destroy();
  }
}

export async function runRollingRestart({
  topology,
  cookie,
  clients: clientCount,
}: {
  topology: Topology;
  cookie: string;
  clients: number;
}): Promise<RollingRestartReport> {
  const port = Number(new URL(topology.url).port);
  const via = (pathname: string, init: RequestInit = {}) =>
    fetch(`${topology.url}${pathname}`, { ...init, headers: { cookie, ...init.headers } });
  const database = new pg.Client({ connectionString: topology.databaseUrl });
  await database.connect();
  const clients: StreamClient[] = [];
  const counts = { publishes: 0, publishErrors: 0, uploads: 0, uploadErrors: 0 };
  /** What the failed stream connections, publishes and uploads saw: an HTTP status or the error. */
  const failures: string[] = [];
  const acknowledged = new Map<string, string>();
  let loadRunning = true;
  try {
    const [{ seq: baseline } = { seq: '0' }] = (
      await database.query<{ seq: string }>('SELECT COALESCE(MAX(seq), 0)::text AS seq FROM notifications')
    ).rows;

    // Open the streams in batches, each resuming after the same baseline.
    for (let i = 0; i < clientCount; i++) {
      const client = new StreamClient(port, cookie, baseline, failures);
      clients.push(client);
      client.connect();
      if (i % 100 === 99) await sleep(200);
    }
    const openDeadline = Date.now() + 60_000;
    while (clients.some((c) => !c.connected) && Date.now() < openDeadline) await sleep(200);
    const opened = clients.filter((c) => c.connected).length;
    if (opened < clientCount) throw new Error(`only ${opened} of ${clientCount} streams opened`);

    const publisher = (async () => {
      for (let n = 0; loadRunning && n < 2000; n++) {
        counts.publishes++;
        try {
          const response = await via('/public/api/notifications', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ message: `rolling ${n}`, type: 'admin' }),
          });
          if (response.status === 200) await response.json();
          else {
            counts.publishErrors++;
            failures.push(`publish ${response.status}`);
          }
        } catch (error) {
          counts.publishErrors++;
          failures.push(`publish ${String(error)}`);
        }
        await sleep(250);
      }
    })();
    const uploader = async (worker: number) => {
      for (let n = 0; loadRunning && n < 2000; n++) {
        counts.uploads++;
        const bytes = randomBytes(16 * 1024 + Math.floor(Math.random() * 512 * 1024));
        const form = new FormData();
        form.append('file', new Blob([bytes]), `load-${worker}-${n}.bin`);
        try {
          const response = await via('/api/files/upload', {
            method: 'POST',
            headers: { accept: 'application/json' },
            body: form,
          });
          if (response.status === 200) acknowledged.set(((await response.json()) as FileRecord).id, sha256(bytes));
          else {
            counts.uploadErrors++;
            failures.push(`upload ${response.status} ${await response.text()}`);
          }
        } catch (error) {
          counts.uploadErrors++;
          failures.push(`upload ${String(error)}`);
        }
      }
    };
    const uploaders = [uploader(1), uploader(2)];

    const started = Date.now();
    // docs/DEPLOY.md's loop: restart, wait for /readyz, then longer than nginx's fail_timeout (it sends a
    // restarted instance nothing until then) before the next instance.
    await sleep(3000);
    for (const instance of topology.instances) {
      const code = await instance.stop('SIGTERM');
      if (code !== 0) throw new Error(`${instance.name} exited with ${code} after SIGTERM:\n${instance.output}`);
      await instance.start();
      await sleep(FAIL_TIMEOUT_MS + 1000);
    }
    loadRunning = false;
    await Promise.all([publisher, ...uploaders]);
    const restartSeconds = ((Date.now() - started) / 1000).toFixed(1);

    // A last notification marks the end; every client must reach it.
    let marker: Notification | undefined;
    for (let attempt = 0; attempt < 5 && !marker; attempt++) {
      const response = await via('/public/api/notifications', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'rolling restart done', type: 'admin' }),
      });
      if (response.status === 200) marker = (await response.json()) as Notification;
      else await sleep(500);
    }
    if (!marker) throw new Error('could not publish the final notification');
    const finalId = marker.id;
    const catchUpDeadline = Date.now() + 60_000;
    while (clients.some((c) => c.ids.at(-1) !== finalId) && Date.now() < catchUpDeadline) await sleep(250);

    const expected = (
      await database.query<{ seq: string }>(
        `SELECT n.seq::text AS seq FROM notifications n
          WHERE n.seq > $1 AND (n.audience_user_id IS NULL
             OR n.audience_user_id = (SELECT id FROM users WHERE owner_key = 'admin'))
          ORDER BY n.seq`,
        [baseline],
      )
    ).rows.map((row) => row.seq);
    const lost = new Map<string, number>();
    const duplicates = new Map<string, number>();
    for (const client of clients) {
      const seen = new Set<string>();
      for (const id of client.ids) {
        if (seen.has(id)) duplicates.set(id, (duplicates.get(id) ?? 0) + 1);
        seen.add(id);
      }
      for (const id of expected) if (!seen.has(id)) lost.set(id, (lost.get(id) ?? 0) + 1);
    }

    // Every acknowledged upload lists and downloads byte-exact through nginx.
    const lostUploads: string[] = [];
    // Every page of the listing (a page holds at most 1,000 files; a fast run makes more).
    const listed = new Set<string>();
    for (let cursor: string | null = ''; cursor !== null;) {
      const page = await via(
        `/api/files/user/admin?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      for (const record of (await page.json()) as FileRecord[]) listed.add(record.id);
      cursor = page.headers.get(NEXT_CURSOR_HEADER);
    }
    for (const [id, digest] of acknowledged) {
      const download = await via(`/api/files/download/${id}`);
      const bytes = Buffer.from(await download.arrayBuffer());
      if (!listed.has(id) || download.status !== 200 || sha256(bytes) !== digest) lostUploads.push(id);
    }

    const attempts = clients.reduce((sum, c) => sum + c.attempts, 0);
    const failedAttempts = clients.reduce((sum, c) => sum + c.failedAttempts, 0);
    const requests = attempts + counts.publishes + counts.uploads;
    const errors = failedAttempts + counts.publishErrors + counts.uploadErrors;
    return {
      lostNotifications: [...lost].map(([id, n]) => `${id} (${n} clients)`),
      duplicateNotifications: [...duplicates].map(([id, n]) => `${id} (${n} times)`),
      lostUploads,
      clientsBehind: clients.filter((c) => c.ids.at(-1) !== finalId).length,
      streamConnectionErrors: failedAttempts,
      summary: {
        streams: clientCount,
        restartSeconds,
        notificationsDelivered: expected.length,
        streamConnections: attempts,
        streamConnectionErrors: failedAttempts,
        publishes: counts.publishes,
        publishErrors: counts.publishErrors,
        uploads: counts.uploads,
        uploadsAcknowledged: acknowledged.size,
        uploadErrors: counts.uploadErrors,
        clientErrorRate: `${((100 * errors) / requests).toFixed(2)}% (${errors} of ${requests} requests)`,
        failures: failures.join('; ').slice(0, 2000),
        // Why nginx answered 502: its error lines, without time and connection numbers.
        nginxErrors: countedLines(
          topology
            .nginxLog()
            .split('\n')
            .filter((line) => line.includes('[error]'))
            .map((line) =>
              line
                .replace(/^.*?\[error\] \d+#\d+: (\*\d+ )?/, '')
                .replace(/, (client|upstream): .*?(, request|$)/g, '$2'),
            ),
        ).slice(0, 2000),
      },
    };
  } finally {
    loadRunning = false;
    clients.forEach((client) => client.stop());
    await database.end();
  }
}

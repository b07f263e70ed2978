import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { ENDPOINTS } from '@atrium/contracts';
import { PUBLIC_ENDPOINTS } from '@atrium/contracts/public-endpoints';
import type { EventSubscriber } from '../events';

// Application metrics at /metrics beside the process and HTTP ones (docs/DEPLOY.md, "Monitoring"). Counters follow
// domain events and answers; gauges are read when Prometheus scrapes, from the sources app.ts passes in. Figures
// read from the database (jobs, stored files) are the same on every instance; the others are this instance's.

export interface AppMetricSources {
  events: EventSubscriber;
  jobs: {
    statsByKind(): Promise<
      { kind: string; queued: number; running: number; failed: number; oldestQueuedAt: string | null }[]
    >;
  };
  /** Every stored file's count and bytes (the trash included). */
  storage(): Promise<{ files: number; bytes: number }>;
  /** Notification streams open on this instance. */
  liveStreams(): number;
  now(): Date;
}

/** Which answers are downloads, by route: a person's file, a public link's file, a public link's zip. */
const DOWNLOAD_ROUTES: Record<string, 'file' | 'link' | 'link_zip' | 'zip'> = {
  [ENDPOINTS.files.download.path]: 'file',
  [ENDPOINTS.files.archive.path]: 'zip',
  [PUBLIC_ENDPOINTS.publicLinks.download.path]: 'link',
  [PUBLIC_ENDPOINTS.publicLinks.fileDownload.path]: 'link',
  [PUBLIC_ENDPOINTS.publicLinks.zip.path]: 'link_zip',
};
const SEARCH_ROUTE = ENDPOINTS.search.search.path;

/** Registers the application metrics; answers what the job queue reports each run to. */
export function registerAppMetrics(app: FastifyInstance, registry: Registry, sources: AppMetricSources) {
  const registers = [registry];
  new Gauge({
    name: 'atrium_jobs',
    help: 'Background jobs by kind and state (queued, running, failed for good), across instances',
    labelNames: ['kind', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      for (const row of await sources.jobs.statsByKind())
        for (const state of ['queued', 'running', 'failed'] as const) this.set({ kind: row.kind, state }, row[state]);
    },
  });
  new Gauge({
    name: 'atrium_job_oldest_queued_seconds',
    help: 'Age of the oldest queued background job, by kind',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      this.reset();
      const now = sources.now().getTime();
      for (const row of await sources.jobs.statsByKind())
        if (row.oldestQueuedAt)
          this.set({ kind: row.kind }, Math.max(0, (now - Date.parse(row.oldestQueuedAt)) / 1000));
    },
  });
  const jobDuration = new Histogram({
    name: 'atrium_job_duration_seconds',
    help: 'Background job runs on this instance (analysis, thumbnails) by kind and outcome (done, retried, failed)',
    labelNames: ['kind', 'outcome'] as const,
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 180, 600],
    registers,
  });
  new Gauge({
    name: 'atrium_stored_files',
    help: 'Files stored (the trash included)',
    registers,
    async collect() {
      this.set((await sources.storage()).files);
    },
  });
  new Gauge({
    name: 'atrium_stored_bytes',
    help: 'Bytes of the stored files (the trash included; older versions not)',
    registers,
    async collect() {
      this.set((await sources.storage()).bytes);
    },
  });
  new Gauge({
    name: 'atrium_live_streams',
    help: 'Notification streams (SSE) open on this instance',
    registers,
    collect() {
      this.set(sources.liveStreams());
    },
  });
  const uploads = new Counter({ name: 'atrium_uploads_total', help: 'Files stored (new content)', registers });
  const uploadedBytes = new Counter({ name: 'atrium_uploaded_bytes_total', help: 'Bytes of files stored', registers });
  const downloads = new Counter({
    name: 'atrium_downloads_total',
    help: 'Downloads answered, by kind (file, zip, link, link_zip) and status',
    labelNames: ['kind', 'status'] as const,
    registers,
  });
  const downloadedBytes = new Counter({
    name: 'atrium_downloaded_bytes_total',
    help: 'Bytes of downloads with a known length (streamed zips count in atrium_downloads_total only)',
    labelNames: ['kind'] as const,
    registers,
  });
  const signInFailures = new Counter({
    name: 'atrium_sign_in_failures_total',
    help: 'Failed sign-ins',
    registers,
  });
  const search = new Histogram({
    name: 'atrium_search_duration_seconds',
    help: 'Search answers (GET /api/search)',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });

  sources.events.on('file.stored', 'metrics', ({ file }) => {
    uploads.inc();
    uploadedBytes.inc(file.size);
  });
  sources.events.on('auth.sign_in_failed', 'metrics', () => signInFailures.inc());
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route === undefined) return;
    const kind = DOWNLOAD_ROUTES[route];
    if (kind && request.method !== 'HEAD') {
      downloads.inc({ kind, status: String(reply.statusCode) });
      const length = Number(reply.getHeader('content-length'));
      if (reply.statusCode < 300 && Number.isFinite(length) && length > 0) downloadedBytes.inc({ kind }, length);
    } else if (route === SEARCH_ROUTE && reply.statusCode === 200) search.observe(reply.elapsedTime / 1000);
  });

  return {
    onJobRunEnded: (kind: string, seconds: number, outcome: 'done' | 'retried' | 'failed') =>
      jobDuration.observe({ kind, outcome }, seconds),
  };
}

// Background work: the durable job queue and the leases of jobs that run on one instance at a time.

/** The durable job queue (migration 0018, renamed in 0027): one job per (file, kind, content hash). */
export interface JobsTable {
  id: string;
  kind: string;
  file_id: string;
  content_sha: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  run_after: string;
  locked_by: string | null;
  locked_until: string | null;
  /** 0…1 while running. */
  progress: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface JobLeasesTable {
  /** The job's name. */
  name: string;
  /** The instance that runs it until `expires_at`. */
  holder: string;
  expires_at: string;
}

// Minimal types for s3rver 3.7 (it ships none): only what the tests use.
declare module 's3rver' {
  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string }[];
  }
  namespace S3rver {
    /** The Koa context of a request (s3rver is a Koa application). */
    interface Context {
      method: string;
      path: string;
      query: Record<string, string | string[] | undefined>;
      status: number;
      body: unknown;
    }
  }
  class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list; composed when `run()` starts the server. */
    middleware: ((ctx: S3rver.Context, next: () => Promise<void>) => Promise<void>)[];
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
  export default S3rver;
}

declare module 's3rver/lib/models/error' {
  /** An S3 error answer: `code` decides the status (e.g. NoSuchUpload → 404). */
  export default class S3Error extends Error {
    constructor(code: string, message?: string, detail?: Record<string, string>);
  }
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** A local S3-compatible server (s3rver, from npm) on a random loopback port, for tests. */
export async function startS3(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const directory = mkdtempSync(path.join(tmpdir(), 'atrium-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

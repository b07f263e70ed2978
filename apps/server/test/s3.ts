import { mkdtempSync, promises as fs, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import S3Error from 's3rver/lib/models/error';

export const S3_TEST_CREDENTIALS = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };

/**
 * The three multipart calls s3rver 3.7.1 lacks and @tus/s3-store needs, answered
 * from s3rver's own upload folders (`<bucket>/._S3rver_uploads/<uploadId>/{key,1,1.md5,…}`):
 * ListParts (s3rver: 405 MethodNotAllowed), AbortMultipartUpload (405) and
 * ListMultipartUploads (501 NotImplemented). Everything else is s3rver's.
 * No npm S3 server that runs on Node 20 implements ListParts (see test/README or
 * docs/ARCHITECTURE.md "Tests"), and a resumable upload cannot find its offset without it.
 */
function multipartListing(directory: string, { listUploads }: { listUploads: boolean }) {
  const uploadsDir = (bucket: string) => path.join(directory, bucket, '._S3rver_uploads');
  return async (ctx: S3rver.Context, next: () => Promise<void>) => {
    const [, bucket = '', ...rest] = ctx.path.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const uploadId = ctx.query.uploadId;
    if (bucket && key && typeof uploadId === 'string' && ctx.query.partNumber === undefined) {
      if (ctx.method !== 'GET' && ctx.method !== 'DELETE') return next();
      const dir = path.join(uploadsDir(bucket), path.basename(uploadId));
      const names = await fs.readdir(dir).catch(() => null);
      if (!names) throw new S3Error('NoSuchUpload', 'The specified upload does not exist.');
      if (ctx.method === 'DELETE') {
        await fs.rm(dir, { recursive: true, force: true });
        ctx.status = 204;
        return;
      }
      const Part = [];
      for (const name of names.filter((n) => /^\d+$/.test(n)).sort((a, b) => Number(a) - Number(b))) {
        const [stat, md5] = await Promise.all([
          fs.stat(path.join(dir, name)),
          fs.readFile(path.join(dir, `${name}.md5`), 'utf8'),
        ]);
        Part.push({
          PartNumber: Number(name),
          LastModified: stat.mtime.toISOString(),
          ETag: `"${md5}"`,
          Size: stat.size,
        });
      }
      ctx.body = { ListPartsResult: { Bucket: bucket, Key: key, UploadId: uploadId, IsTruncated: false, Part } };
      return;
    }
    if (listUploads && bucket && !key && ctx.method === 'GET' && 'uploads' in ctx.query) {
      const prefix = typeof ctx.query.prefix === 'string' ? ctx.query.prefix : '';
      const Upload = [];
      for (const id of await fs.readdir(uploadsDir(bucket)).catch(() => [])) {
        const dir = path.join(uploadsDir(bucket), id);
        const [stat, uploadKey] = await Promise.all([fs.stat(dir), fs.readFile(path.join(dir, 'key'), 'utf8')]);
        if (uploadKey.startsWith(prefix))
          Upload.push({ Key: uploadKey, UploadId: id, Initiated: stat.birthtime.toISOString() });
      }
      ctx.body = { ListMultipartUploadsResult: { Bucket: bucket, Prefix: prefix, IsTruncated: false, Upload } };
      return;
    }
    return next();
  };
}

/**
 * A local S3-compatible server (s3rver, from npm) on a random loopback port, for tests. `listUploads: false` leaves
 * ListMultipartUploads to s3rver (501 NotImplemented), as some S3-compatible servers answer.
 */
export async function startS3({ listUploads = true }: { listUploads?: boolean } = {}): Promise<{
  endpoint: string;
  /** Every object key in a bucket (multipart uploads in progress are not objects). */
  keys(bucket: string): Promise<string[]>;
  /** Ids of the multipart uploads in progress in a bucket. */
  uploads(bucket: string): Promise<string[]>;
  close(): Promise<void>;
}> {
  const directory = mkdtempSync(path.join(tmpdir(), 'atrium-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  // After s3rver's XML encoder and before its router, so answers and errors look like its own.
  server.middleware.splice(server.middleware.length - 1, 0, multipartListing(directory, { listUploads }));
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    async keys(bucket) {
      const answer = await fetch(`${endpoint}/${bucket}?list-type=2`);
      const xml = await answer.text();
      return [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => match[1] ?? '').sort();
    },
    async uploads(bucket) {
      return fs.readdir(path.join(directory, bucket, '._S3rver_uploads')).catch(() => []);
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';

/**
 * Counts, hashes (SHA-256) and keeps the first `headBytes` of a stream while it flows through; fails as soon as
 * `check(size so far)` returns an error (an upload limit, a quota).
 */
export class StreamInspector<E extends Error = Error> extends Transform {
  size = 0;
  private hash = createHash('sha256');
  private headChunks: Buffer[] = [];
  private headLength = 0;

  constructor(
    private readonly check: (size: number) => E | undefined,
    private readonly headBytes: number,
  ) {
    super({ highWaterMark: 1024 * 1024 });
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null, data?: Buffer) => void,
  ) {
    const error = this.inspectChunk(chunk);
    if (error) callback(error);
    else callback(null, chunk);
  }

  /** Counts, checks and hashes the next bytes (not kept: the caller may reuse the buffer). */
  inspectChunk(chunk: Buffer): E | undefined {
    this.size += chunk.length;
    const error = this.check(this.size);
    if (error) return error;
    this.hash.update(chunk);
    if (this.headLength < this.headBytes) {
      const slice = chunk.subarray(0, this.headBytes - this.headLength);
      this.headChunks.push(Buffer.from(slice));
      this.headLength += slice.length;
    }
    return undefined;
  }

  /**
   * Reads a whole file through `inspectChunk`, into one reused buffer: a file of a GiB read as a stream
   * allocated a thousand 1 MiB buffers and spent about a second collecting them.
   */
  async inspectFile(file: string): Promise<void> {
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.allocUnsafeSlow(4 * 1024 * 1024);
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) return;
        const error = this.inspectChunk(buffer.subarray(0, bytesRead));
        if (error) throw error;
      }
    } finally {
      await handle.close();
    }
  }

  /**
   * Takes over what `other` counted, hashed and kept of the same bytes (inspected while they were written, with no
   * check of its own), and checks their size as `inspectChunk` would: the error, or undefined. `other` is spent.
   */
  takeOver(other: StreamInspector<Error>): E | undefined {
    const error = this.check(other.size);
    if (error) return error;
    this.size = other.size;
    this.hash = other.hash;
    this.headChunks = other.headChunks;
    this.headLength = other.headLength;
    return undefined;
  }

  digest = () => this.hash.digest('hex');
  head = () => Buffer.concat(this.headChunks);
}

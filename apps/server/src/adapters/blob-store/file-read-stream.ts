/**
 * A stored file's bytes as a `Readable` that, piped into an HTTP response (as Fastify sends a stream), reads into a
 * few reused buffers instead of a fresh 1 MiB buffer per read (docs/BENCHMARKS.md, "Files: 1 GiB upload and download
 * versus nginx": `fs.createReadStream` allocates `Buffer.allocUnsafeSlow(highWaterMark)` for every read, and on Node
 * 24 each such allocation grows the heap, faults in fresh pages and gives the collector work, which halved download
 * throughput and doubled memory growth against Node 22).
 *
 * A buffer is read into again only after the response's write callback for it has run: a `ServerResponse` calls it
 * once the socket has handed the bytes to the kernel (or to TLS), so no byte in flight is overwritten. Any other
 * consumer (`data` events, `pipe` into another stream, async iteration) gets fresh buffers, as a plain read stream
 * gives, because a transform's write callback may run while it still holds the chunk.
 */
import { close, read } from 'node:fs';
import { ServerResponse } from 'node:http';
import { Readable, type Writable } from 'node:stream';

/** Bytes per read: large reads cost less CPU per GiB on both Node lines (docs/BENCHMARKS.md). */
const CHUNK_BYTES = 1024 * 1024;
/** Buffers per response: one being read, the others written or queued in the socket. */
const BUFFERS_PER_RESPONSE = 4;

export class FileReadStream extends Readable {
  readonly #fd: number;
  /** The next byte to read. */
  #position: number;
  /** One past the last byte to send. */
  readonly #end: number;
  #closed = false;
  #reading = false;
  /** Whether the reused-buffer loop (`pipe` into a response) drives this stream. */
  #pumping = false;
  #finished = false;

  /** `fd` is owned from here on: closed when the stream ends or is destroyed. `end` is inclusive, as a range's. */
  constructor(fd: number, start: number, end: number) {
    super({ highWaterMark: CHUNK_BYTES });
    this.#fd = fd;
    this.#position = start;
    this.#end = end + 1;
  }

  override _read(size: number): void {
    const length = Math.min(Math.max(size, CHUNK_BYTES), this.#end - this.#position);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafeSlow(length);
    this.#reading = true;
    read(this.#fd, buffer, 0, length, this.#position, (error, bytesRead) => {
      this.#reading = false;
      if (this.destroyed) return this.#closeFd();
      if (error) return this.destroy(error);
      if (bytesRead === 0) return this.destroy(new Error('The stored file ended before its recorded size.'));
      this.#position += bytesRead;
      this.push(bytesRead === length ? buffer : buffer.subarray(0, bytesRead));
    });
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    if (!(destination instanceof ServerResponse) || this.#pumping || this.readableFlowing !== null) {
      return super.pipe(destination, options);
    }
    this.#pumping = true;
    this.#pump(destination, options?.end !== false);
    return destination;
  }

  /** Reads into reused buffers and writes each to `response`; a buffer is reused once its write has completed. */
  #pump(response: Writable, endResponse: boolean): void {
    const free: Buffer[] = [];
    let allocated = 0;
    let writing = 0;
    const finish = () => {
      if (this.#finished) return;
      this.#finished = true;
      if (endResponse) response.end();
      // Ends this stream too (nothing is buffered), so whoever waits for its end sees it.
      this.push(null);
      this.resume();
    };
    const next = (): void => {
      while (!this.#reading && !this.destroyed && this.#position < this.#end) {
        const length = Math.min(CHUNK_BYTES, this.#end - this.#position);
        let buffer = free.pop();
        if (!buffer || buffer.length < length) {
          if (allocated >= BUFFERS_PER_RESPONSE && !buffer) return; // all in flight: a write callback resumes
          if (!buffer) allocated += 1;
          buffer = Buffer.allocUnsafeSlow(length);
        }
        const target = buffer;
        this.#reading = true;
        read(this.#fd, target, 0, length, this.#position, (error, bytesRead) => {
          this.#reading = false;
          if (this.destroyed) return this.#closeFd();
          if (error) return this.destroy(error);
          if (bytesRead === 0) return this.destroy(new Error('The stored file ended before its recorded size.'));
          this.#position += bytesRead;
          writing += 1;
          response.write(bytesRead === target.length ? target : target.subarray(0, bytesRead), (writeError) => {
            writing -= 1;
            if (writeError) return this.destroy(writeError);
            free.push(target);
            if (this.#position >= this.#end && writing === 0 && !this.#reading) {
              if (!this.destroyed) finish();
              return;
            }
            next();
          });
          next();
        });
      }
      if (this.#position >= this.#end && writing === 0 && !this.#reading && !this.destroyed) finish();
    };
    next();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // A read in flight still writes into its buffer: the descriptor is closed when it returns.
    if (!this.#reading) this.#closeFd();
    callback(error);
  }

  #closeFd(): void {
    if (this.#closed) return;
    this.#closed = true;
    close(this.#fd, () => undefined);
  }
}

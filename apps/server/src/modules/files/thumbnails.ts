import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  NO_THUMBNAIL_MESSAGE,
  PAGE_THUMBNAIL_TYPES,
  THUMBNAIL_TYPES,
  VIDEO_THUMBNAIL_TYPES,
} from '@atrium/contracts/texts';
import sharp from 'sharp';
import { EngineUnavailableError } from '../../adapters/ai/local/errors';
import { requireExecutable, runPipeline } from '../../adapters/ai/local/system';
import { readAll } from '../../lib/read-all';
import type { BlobStore } from '../../adapters/blob-store';
import { AppError } from '../../errors';
import { thumbnailKey, type StoredFile } from './stored-file';

export const THUMBNAIL_SIZE = 256;

/** Bounds of the engines behind PDF and video thumbnails (per instance). */
export interface ThumbnailLimits {
  /** One engine run (pdftoppm, ffmpeg) is killed after this long. */
  timeoutMs: number;
  /** Largest PDF rendered (it is handed to pdftoppm in memory). */
  maxPdfBytes: number;
  /** Largest video (copied to a temporary file first: containers need seeking). */
  maxVideoBytes: number;
  /** Largest PNG an engine may write before it is killed. */
  maxRenderBytes: number;
  /** Engine runs at once; more wait in line. */
  concurrency: number;
  /** Runs waiting in line; beyond it the request is refused (503, try again). */
  maxWaiting: number;
  /** How long a file whose thumbnail failed is not tried again (its key is remembered, at most 1,000). */
  failureMemoryMs: number;
}

export const DEFAULT_THUMBNAIL_LIMITS: ThumbnailLimits = {
  timeoutMs: 30_000,
  maxPdfBytes: 100 * 1024 * 1024,
  maxVideoBytes: 4 * 1024 ** 3,
  maxRenderBytes: 32 * 1024 * 1024,
  concurrency: 2,
  maxWaiting: 200,
  failureMemoryMs: 10 * 60_000,
};

type Source = 'image' | 'pdf' | 'video';
const SOURCES = new Map<string, Source>([
  ...THUMBNAIL_TYPES.map((type) => [type, 'image'] as const),
  ...PAGE_THUMBNAIL_TYPES.map((type) => [type, 'pdf'] as const),
  ...VIDEO_THUMBNAIL_TYPES.map((type) => [type, 'video'] as const),
]);

/** Whether a thumbnail is ever made of this content type (whether its engine is installed aside). */
export const thumbnailable = (contentType: string): boolean => SOURCES.has(contentType);

const noThumbnail = (cause?: unknown) => new AppError('NOT_FOUND', NO_THUMBNAIL_MESSAGE, { cause });
const couldNotMake = (cause?: unknown) =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', 'Could not make a thumbnail of this file.', { cause });

/** At most `concurrency` tasks at once, at most `maxWaiting` in line (then 503). */
function createGate(concurrency: number, maxWaiting: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= concurrency) {
      if (waiting.length >= maxWaiting)
        throw new AppError('SERVICE_UNAVAILABLE', 'Too many thumbnails are being made. Try again in a moment.', {
          headers: { 'retry-after': '5' },
        });
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else running += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}

/**
 * Small WebP pictures of files, kept in the blob store under a key derived from the content's blob key (so new
 * content — a replace, a version restored — never shows an older picture). Images go through sharp; PDFs' first page
 * through poppler's `pdftoppm`, videos' frame at 1 s (the first frame of shorter ones) through `ffmpeg`, then sharp.
 * Made once: on the first request, or in the background after an upload (`ensure`); two requests for one key on one
 * instance share one making. Without the engine's Debian package the answer is 404 "There is no thumbnail…".
 */
export function createThumbnails(
  blobs: BlobStore,
  options: { limits?: Partial<ThumbnailLimits>; log?: { warn(details: object, message: string): void } } = {},
) {
  const limits = { ...DEFAULT_THUMBNAIL_LIMITS, ...options.limits };
  const gate = createGate(limits.concurrency, limits.maxWaiting);
  const making = new Map<string, Promise<void>>();
  const failedUntil = new Map<string, number>();

  async function pdfPage(file: StoredFile): Promise<Buffer> {
    const pdftoppm = requireExecutable('pdftoppm', 'poppler-utils', 'PDF thumbnails');
    if (file.size > limits.maxPdfBytes) throw couldNotMake();
    // Read inside the gate: at most `concurrency` PDFs are held in memory.
    return gate(async () =>
      runPipeline(
        [{ command: pdftoppm, args: ['-png', '-f', '1', '-l', '1', '-scale-to', '512', '-singlefile', '-'] }],
        {
          input: await readAll(await blobs.get(file.blobKey), limits.maxPdfBytes, couldNotMake),
          timeoutMs: limits.timeoutMs,
          maxOutputBytes: limits.maxRenderBytes,
          label: 'PDF thumbnail',
        },
      ),
    );
  }

  async function videoFrame(file: StoredFile): Promise<Buffer> {
    const ffmpeg = requireExecutable('ffmpeg', 'ffmpeg', 'Video thumbnails');
    if (file.size > limits.maxVideoBytes) throw couldNotMake();
    return gate(async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'atrium-thumb-'));
      try {
        const video = path.join(dir, 'video');
        await pipeline(await blobs.get(file.blobKey), createWriteStream(video));
        const frameAt = (seconds: number) =>
          runPipeline(
            [
              {
                command: ffmpeg,
                args: [
                  ...['-nostdin', '-v', 'error', '-ss', String(seconds), '-i', video],
                  ...['-frames:v', '1', '-an', '-f', 'image2pipe', '-vcodec', 'png', '-'],
                ],
              },
            ],
            { timeoutMs: limits.timeoutMs, maxOutputBytes: limits.maxRenderBytes, label: 'Video thumbnail' },
          );
        const poster = await frameAt(1);
        return poster.length > 0 ? poster : await frameAt(0);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }

  async function make(file: StoredFile, source: Source, key: string): Promise<void> {
    let input: Readable;
    if (source === 'image') input = await blobs.get(file.blobKey);
    else {
      let picture: Buffer;
      try {
        picture = source === 'pdf' ? await pdfPage(file) : await videoFrame(file);
      } catch (error) {
        if (error instanceof EngineUnavailableError) throw noThumbnail(error);
        if (error instanceof AppError) throw error;
        options.log?.warn({ err: error, id: file.id }, 'could not make a thumbnail');
        throw couldNotMake(error);
      }
      if (picture.length === 0) throw couldNotMake();
      input = Readable.from([picture]);
    }
    const transformer = sharp({ limitInputPixels: 100_000_000, animated: false })
      .rotate()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 });
    input.on('error', (error) => transformer.destroy(error));
    try {
      await blobs.put(key, input.pipe(transformer));
    } catch (error) {
      throw couldNotMake(error);
    }
  }

  /** Makes the thumbnail unless the blob store has it; one making per key at a time on this instance. */
  async function ensure(file: StoredFile): Promise<string> {
    const source = SOURCES.get(file.contentType);
    if (!source) throw noThumbnail();
    const key = thumbnailKey(file.blobKey);
    const pending = making.get(key);
    if (pending) {
      await pending;
      return key;
    }
    if ((failedUntil.get(key) ?? 0) > Date.now()) throw couldNotMake();
    if (await blobs.stat(key)) return key;
    const run = make(file, source, key).catch((error: unknown) => {
      // Unreadable content is not tried again for a while (a grid would ask on every visit); a missing engine or a
      // full line is: it may be installed or free by then.
      if (error instanceof AppError && error.code === 'UNSUPPORTED_MEDIA_TYPE') {
        if (failedUntil.size >= 1000) failedUntil.delete(failedUntil.keys().next().value as string);
        failedUntil.set(key, Date.now() + limits.failureMemoryMs);
      }
      throw error;
    });
    making.set(key, run);
    try {
      await run;
    } finally {
      making.delete(key);
    }
    return key;
  }

  return {
    ensure,
    /** The thumbnail's bytes, made first if needed. */
    async open(file: StoredFile): Promise<Readable> {
      return blobs.get(await ensure(file));
    },
  };
}

import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { numberedFileName } from '../file-names';
import { contentDisposition } from './content-disposition';

/** One path segment of a zip entry: never a separator, `.` or `..` (names are checked on the way in; old rows too). */
export const zipSegment = (name: string) => (name === '.' || name === '..' ? '_' : name.replace(/[\\/:]/g, '_') || '_');

/** Stored bytes to put in a zip: opened only when the zip reaches them. */
export interface ZipSource {
  size: number;
  mtime: Date;
  open: () => Promise<Readable>;
}

/**
 * Builds a zip that is streamed as it is read (the public links' folder zips and `POST /api/files/archive`):
 * entries are stored, not compressed (most files are compressed already, and the total size is then known up front,
 * so the answer has a Content-Length), each blob is opened only when the zip reaches it, and nothing is built in
 * memory or on disk. Entry names are safe (`zipSegment`) and unique within their folder, compared
 * case-insensitively: a second `report.pdf` (or one that only became equal once made safe) is `report (1).pdf`.
 */
export function createZipStream() {
  const zip = new ZipFile();
  /** Per folder path ('' = the top), the lower-cased names taken there. */
  const taken = new Map<string, Set<string>>();

  const unique = (parent: string, name: string): string => {
    const names = taken.get(parent) ?? new Set<string>();
    taken.set(parent, names);
    const safe = zipSegment(name);
    let n = 0;
    while (names.has(numberedFileName(safe, n).toLowerCase())) n++;
    const chosen = numberedFileName(safe, n);
    names.add(chosen.toLowerCase());
    return chosen;
  };

  return {
    /** Adds folder `name` inside `parent` (a path from `folder()`, or '' for the top); returns its path. */
    folder(parent: string, name: string): string {
      const path = `${parent}${unique(parent, name)}/`;
      zip.addEmptyDirectory(path);
      return path;
    },

    /** Adds a file `name` inside `parent`; its bytes are read from `source` when the zip reaches them. */
    file(parent: string, name: string, source: ZipSource): string {
      const path = `${parent}${unique(parent, name)}`;
      zip.addReadStreamLazy(path, { size: source.size, mtime: source.mtime, compress: false }, (callback) => {
        source.open().then(
          (stream) => callback(null, stream),
          (error: unknown) => callback(error, undefined as unknown as Readable),
        );
      });
      return path;
    },

    /** Ends the zip: its total size (-1 when unknown) and the stream to send. */
    async finish(): Promise<{ size: number; stream: Readable }> {
      const size = await new Promise<number>((resolve) =>
        zip.end(
          undefined,
          // yazl passes the total (-1 when unknown); its type declarations omit the argument.
          ((total: number) => resolve(total)) as unknown as () => void,
        ),
      );
      return { size, stream: zip.outputStream as Readable };
    },
  };
}

/**
 * The headers of a zip download (a chosen selection or a folder link's folder): an attachment named `fileName`,
 * never cached, sandboxed, with its length when it is known up front (`size` < 0: unknown).
 */
export const zipHeaders = (zip: { fileName: string; size: number }) => ({
  'content-type': 'application/zip',
  'content-disposition': contentDisposition('attachment', zip.fileName),
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; sandbox",
  ...(zip.size >= 0 ? { 'content-length': zip.size } : {}),
});

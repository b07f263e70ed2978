import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { AppError } from '../../errors';
import { numberedFileName } from '../file-names';
import { contentDisposition } from './content-disposition';

/** One path segment of a zip entry: never a separator, `.` or `..` (names are checked on the way in; old rows too). */
export const zipSegment = (name: string) => (name === '.' || name === '..' ? '_' : name.replace(/[\\/:]/g, '_') || '_');

/** The longest entry path a zip holds: its length field has 16 bits (UTF-8 bytes). */
export const MAX_ZIP_PATH_BYTES = 0xffff;
/** The shortest a path segment is cut to (bytes) before a tree is refused as too deep for a zip. */
const MIN_SEGMENT_BYTES = 32;
/** An extension longer than this (bytes) is not kept apart when a name is shortened: it is part of the stem. */
const MAX_KEPT_EXTENSION_BYTES = 16;

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

/** The first characters of `text` that fit in `bytes` UTF-8 bytes (never half a character). */
function cutToBytes(text: string, bytes: number): string {
  let cut = '';
  let used = 0;
  for (const char of text) {
    used += bytesOf(char);
    if (used > bytes) break;
    cut += char;
  }
  return cut;
}

/**
 * `name` in at most `bytes` UTF-8 bytes, the n-th of its shortened forms (`n` > 0: ` (n)` before the extension):
 * the stem is cut, a file's extension is kept (when it is short), and the result is still a safe segment.
 */
export function shortenedSegment(name: string, bytes: number, n: number, kind: 'file' | 'folder'): string {
  const dot = kind === 'file' ? name.lastIndexOf('.') : -1;
  const ext = dot > 0 && bytesOf(name.slice(dot)) <= MAX_KEPT_EXTENSION_BYTES ? name.slice(dot) : '';
  const stem = ext ? name.slice(0, dot) : name;
  const suffix = `${n > 0 ? ` (${n})` : ''}${ext}`;
  const cut = cutToBytes(stem, Math.max(bytes - bytesOf(suffix), 1)).trimEnd() || '_';
  return zipSegment(`${cut}${suffix}`);
}

interface Entry {
  kind: 'file' | 'folder';
  parent: Entry | undefined;
  /** The entry's own name, safe and unique in its folder. */
  name: string;
  source?: ZipSource;
}

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
 *
 * A zip entry's path holds at most 65,535 bytes (`MAX_ZIP_PATH_BYTES`). A tree whose paths are longer (deep folders
 * of long names) still downloads: every segment is cut to one byte budget, the largest that makes every path fit
 * (files keep their extension; a segment that becomes equal to a sibling's gets a number, ` (1)`). Names that fit
 * are never changed. A tree too deep even at 32 bytes a segment is refused (400) before a byte is sent.
 */
export function createZipStream() {
  const zip = new ZipFile();
  /** Every entry, in order (a folder before what is in it), and the folders by the path `folder()` returned. */
  const entries: Entry[] = [];
  const folders = new Map<string, Entry>();
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

  /** Each entry's path in the zip: as named, or with its segments shortened when some path is too long. */
  const pathsOf = (): Map<Entry, string> => {
    const full = (budget: number) => {
      const lengths = new Map<Entry, number>();
      let longest = 0;
      for (const entry of entries) {
        const own = Math.min(bytesOf(entry.name), budget) + (entry.kind === 'folder' ? 1 : 0);
        const length = (entry.parent ? (lengths.get(entry.parent) ?? 0) : 0) + own;
        lengths.set(entry, length);
        longest = Math.max(longest, length);
      }
      return longest;
    };
    const widest = Math.max(0, ...entries.map((entry) => bytesOf(entry.name)));
    const budget = (() => {
      if (full(widest) <= MAX_ZIP_PATH_BYTES) return undefined;
      if (full(MIN_SEGMENT_BYTES) > MAX_ZIP_PATH_BYTES) {
        throw new AppError('BAD_REQUEST', 'These folders are nested too deeply to download as one zip.');
      }
      // The largest budget that fits (the longest path only grows with the budget).
      let [fits, tooLong] = [MIN_SEGMENT_BYTES, widest];
      while (tooLong - fits > 1) {
        const middle = Math.floor((fits + tooLong) / 2);
        if (full(middle) <= MAX_ZIP_PATH_BYTES) fits = middle;
        else tooLong = middle;
      }
      return fits;
    })();

    // Names that fit stay as they are and are taken first; the others are cut, numbered on a clash.
    const shortTaken = new Map<Entry | undefined, Set<string>>();
    const takenIn = (parent: Entry | undefined) => {
      const names = shortTaken.get(parent) ?? new Set<string>();
      shortTaken.set(parent, names);
      return names;
    };
    const fits = (entry: Entry) => budget === undefined || bytesOf(entry.name) <= budget;
    for (const entry of entries) if (fits(entry)) takenIn(entry.parent).add(entry.name.toLowerCase());
    const paths = new Map<Entry, string>();
    for (const entry of entries) {
      let name = entry.name;
      if (budget !== undefined && !fits(entry)) {
        const names = takenIn(entry.parent);
        let n = 0;
        while (names.has(shortenedSegment(entry.name, budget, n, entry.kind).toLowerCase())) n++;
        name = shortenedSegment(entry.name, budget, n, entry.kind);
        names.add(name.toLowerCase());
      }
      const parent = entry.parent ? (paths.get(entry.parent) ?? '') : '';
      paths.set(entry, `${parent}${name}${entry.kind === 'folder' ? '/' : ''}`);
    }
    return paths;
  };

  return {
    /** Adds folder `name` inside `parent` (a path from `folder()`, or '' for the top); returns its path. */
    folder(parent: string, name: string): string {
      const path = `${parent}${unique(parent, name)}/`;
      const entry: Entry = { kind: 'folder', parent: folders.get(parent), name: path.slice(parent.length, -1) };
      entries.push(entry);
      folders.set(path, entry);
      return path;
    },

    /** Adds a file `name` inside `parent`; its bytes are read from `source` when the zip reaches them. */
    file(parent: string, name: string, source: ZipSource): string {
      const path = `${parent}${unique(parent, name)}`;
      entries.push({ kind: 'file', parent: folders.get(parent), name: path.slice(parent.length), source });
      return path;
    },

    /**
     * Ends the zip: its total size (-1 when unknown) and the stream to send. Throws (400) before anything is
     * streamed when the tree is too deep for a zip even with shortened names.
     */
    async finish(): Promise<{ size: number; stream: Readable }> {
      const paths = pathsOf();
      for (const [entry, path] of paths) {
        const source = entry.source;
        if (!source) {
          zip.addEmptyDirectory(path);
          continue;
        }
        zip.addReadStreamLazy(path, { size: source.size, mtime: source.mtime, compress: false }, (callback) => {
          source.open().then(
            (stream) => callback(null, stream),
            (error: unknown) => callback(error, undefined as unknown as Readable),
          );
        });
      }
      // yazl announces a size with the zip64 end records once the central directory reaches 64 KiB (0xffff), but
      // writes them only past 4 GiB: the answer then fell 76 bytes short of its Content-Length and hung. Asking for
      // them makes both agree (a central directory record: 46 bytes, the path, a 9-byte timestamp field).
      const centralDirectoryBytes = [...paths.values()].reduce((sum, path) => sum + 46 + bytesOf(path) + 9, 0);
      const size = await new Promise<number>((resolve) =>
        zip.end(
          { forceZip64Format: centralDirectoryBytes >= 0xffff, comment: '' },
          // yazl passes the total (-1 when unknown); its type declarations omit the argument.
          ((total: number) => resolve(total)) as unknown as () => void,
        ),
      );
      return { size, stream: zip.outputStream as Readable };
    },
  };
}

/** A folder below a tree's root, for `addFolderTree`. */
export interface ZipTreeFolder {
  id: string;
  parent_id: string | null;
  name: string;
}

/** A file of a tree, for `addFolderTree`: the folder it is in, its name and its bytes. */
export interface ZipTreeFile {
  folderId: string | null;
  name: string;
  source: ZipSource;
}

/**
 * Adds the whole tree of folder `rootId` to `zip` inside `parent` (a path from `folder()`, or '' for the top): every
 * folder below the root (`tree.subfolders`: a parent before its children) and the files of the root and of those
 * folders (`tree.filesIn`, each made an entry by `entryOf`). The one folder-tree zip: a folder link's whole folder
 * and the folders of `POST /api/files/archive`.
 */
export async function addFolderTree<Row>(
  zip: Pick<ReturnType<typeof createZipStream>, 'folder' | 'file'>,
  parent: string,
  rootId: string,
  tree: {
    subfolders(rootId: string): Promise<ZipTreeFolder[]>;
    filesIn(folderIds: string[]): Promise<Row[]>;
  },
  entryOf: (row: Row) => ZipTreeFile,
): Promise<void> {
  const below = await tree.subfolders(rootId);
  const rows = await tree.filesIn([rootId, ...below.map((folder) => folder.id)]);
  const pathOf = new Map<string, string>([[rootId, parent]]);
  for (const folder of below) pathOf.set(folder.id, zip.folder(pathOf.get(folder.parent_id ?? '') ?? '', folder.name));
  for (const entry of rows.map(entryOf)) zip.file(pathOf.get(entry.folderId ?? '') ?? '', entry.name, entry.source);
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

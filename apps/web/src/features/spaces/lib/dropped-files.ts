/** A file to upload and its path below the folder it goes into (`Trip/day 1/a.jpg`; just the name at the top). */
export interface PickedFile {
  file: File;
  path: string;
}

/** Files from a folder picker (`webkitdirectory`) or a plain multiple picker. */
export const pickedFiles = (files: Iterable<File>): PickedFile[] =>
  Array.from(files, (file) => ({ file, path: file.webkitRelativePath || file.name }));

const readAll = (reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> =>
  new Promise((resolve, reject) => {
    const found: FileSystemEntry[] = [];
    // readEntries answers in batches (100 in Chromium) until an empty one.
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) resolve(found);
        else {
          found.push(...batch);
          next();
        }
      }, reject);
    next();
  });

async function walk(entry: FileSystemEntry, into: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    into.push({ file, path: entry.fullPath.replace(/^\//, '') || file.name });
  } else if (entry.isDirectory) {
    for (const child of await readAll((entry as FileSystemDirectoryEntry).createReader())) await walk(child, into);
  }
}

/**
 * What was dropped: files, and whole folders with everything inside them (their paths keep the structure). Browsers
 * without the entries API give the files only.
 */
export async function droppedFiles(data: DataTransfer): Promise<PickedFile[]> {
  const entries = Array.from(data.items)
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.() ?? null);
  if (entries.length === 0 || entries.some((entry) => entry === null)) return pickedFiles(data.files);
  const found: PickedFile[] = [];
  for (const entry of entries) if (entry) await walk(entry, found);
  return found;
}

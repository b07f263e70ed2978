import { checkName, fileNameKey, MAX_FILE_NAME_LENGTH, nameMessages, sanitizeFileName } from '../../lib/file-names';

/** The messages of the folder-name rules (400). */
export const FOLDER_NAME_MESSAGES = nameMessages('folder');

/** A folder name as typed by the person creating it, checked (`checkName`): a bad one is a 400 saying why. */
export const checkFolderName = (raw: string): string => checkName(raw, 'folder');

/** Folder names compare like file names (`fileNameKey`: case-insensitively). */
export const folderNameKey = fileNameKey;

/**
 * The keys of a listing's `names` filter (`a.txt/b.txt`: no stored name contains "/"), each name cleaned as a stored
 * one is, so a name matches the entry an upload of that name would collide with. Blank names are left out.
 */
export const listedNameKeys = (names: string): string[] =>
  names
    .split('/')
    .filter((name) => name.trim() !== '')
    .map((name) => fileNameKey(sanitizeFileName(name)));

/**
 * The n-th name to try for a folder: `name`, then `name (1)`, `name (2)`… Folders have no extension (unlike
 * `numberedFileName`, a dot in `v1.2` is part of the name); the name is shortened to keep within 255 characters.
 */
export function numberedFolderName(name: string, n: number): string {
  if (n === 0) return name;
  const suffix = ` (${n})`;
  const room = Math.max(MAX_FILE_NAME_LENGTH - suffix.length, 1);
  return `${Array.from(name).slice(0, room).join('').trimEnd()}${suffix}`;
}

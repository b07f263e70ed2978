import { fileNameKey, MAX_FILE_NAME_LENGTH } from '../../lib/file-names';
import { AppError } from '../../errors';

/** The messages of the folder-name rules (400). */
export const FOLDER_NAME_MESSAGES = {
  empty: 'Give the folder a name.',
  slash: 'A folder name cannot contain / or \\.',
  dots: 'A folder name cannot be . or ..',
  control: 'A folder name cannot contain control characters.',
  long: `A folder name can be at most ${MAX_FILE_NAME_LENGTH} characters.`,
} as const;

// C0/C1 control characters and bidirectional overrides (which can disguise a name), as for file names.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * A folder name as given, checked: NFC, trimmed, non-empty, no `/` or `\`, not `.` or `..`, no control or bidi
 * characters, at most 255 characters. Unlike an uploaded file's name (which is cleaned up), a folder name is typed
 * by the person creating it, so a bad one is refused with a 400 saying why.
 */
export function checkFolderName(raw: string): string {
  const name = raw.normalize('NFC').trim();
  const problem =
    name.length === 0
      ? FOLDER_NAME_MESSAGES.empty
      : /[/\\]/.test(name)
        ? FOLDER_NAME_MESSAGES.slash
        : name === '.' || name === '..'
          ? FOLDER_NAME_MESSAGES.dots
          : UNSAFE.test(name)
            ? FOLDER_NAME_MESSAGES.control
            : Array.from(name).length > MAX_FILE_NAME_LENGTH
              ? FOLDER_NAME_MESSAGES.long
              : undefined;
  if (problem) throw new AppError('BAD_REQUEST', problem);
  return name;
}

/** Folder names compare like file names (`fileNameKey`: case-insensitively). */
export const folderNameKey = fileNameKey;

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

import { AppError } from '../errors';

/** Longest label kept for a file name (in characters). */
export const MAX_FILE_NAME_LENGTH = 255;

// C0/C1 control characters, and bidirectional overrides that can disguise an extension.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The user's file name as a label: last path segment only, no control or
 * bidi characters, trimmed, at most 255 characters. Never used as a path.
 */
export function sanitizeFileName(raw: string | undefined | null): string {
  const base = (raw ?? '').normalize('NFC').split(/[/\\]/).pop() ?? '';
  const cleaned = base.replace(UNSAFE, '').trim();
  const chars = Array.from(cleaned);
  const limited = chars.length > MAX_FILE_NAME_LENGTH ? chars.slice(0, MAX_FILE_NAME_LENGTH).join('') : cleaned;
  return limited.length > 0 && limited !== '.' && limited !== '..' ? limited : 'file';
}

/**
 * What makes two names of one owner "the same": names compare case-insensitively (Unicode lower case,
 * locale-independent, after the NFC normalisation of `sanitizeFileName`), as on the file systems of
 * Windows and macOS, where both files would otherwise end up in one download folder under one name.
 */
export const fileNameKey = (fileName: string): string => fileName.toLowerCase();

/**
 * The n-th name to try for a file: `name.ext`, then `name (1).ext`, `name (2).ext`… The number goes before
 * the last extension (none for a leading-dot name such as `.env`); the stem is shortened to keep the
 * name within `MAX_FILE_NAME_LENGTH`.
 */
export function numberedFileName(fileName: string, n: number): string {
  if (n === 0) return fileName;
  const dot = fileName.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [fileName.slice(0, dot), fileName.slice(dot)] : [fileName, ''];
  const suffix = ` (${n})${ext}`;
  const room = Math.max(MAX_FILE_NAME_LENGTH - Array.from(suffix).length, 1);
  return `${Array.from(stem).slice(0, room).join('').trimEnd()}${suffix}`;
}

/** The messages of the name rules (400) for a typed file or folder name. */
export const nameMessages = (kind: 'file' | 'folder') =>
  ({
    empty: `Give the ${kind} a name.`,
    slash: `A ${kind} name cannot contain / or \\.`,
    dots: `A ${kind} name cannot be . or ..`,
    control: `A ${kind} name cannot contain control characters.`,
    long: `A ${kind} name can be at most ${MAX_FILE_NAME_LENGTH} characters.`,
  }) as const;

/**
 * A name as typed (a rename, a new folder), checked: NFC, trimmed, non-empty, no `/` or `\`, not `.` or `..`, no
 * control or bidi characters, at most 255 characters. Unlike an uploaded file's name (which `sanitizeFileName`
 * cleans up), a typed name is refused with a 400 saying why.
 */
export function checkName(raw: string, kind: 'file' | 'folder'): string {
  const messages = nameMessages(kind);
  const name = raw.normalize('NFC').trim();
  const problem =
    name.length === 0
      ? messages.empty
      : /[/\\]/.test(name)
        ? messages.slash
        : name === '.' || name === '..'
          ? messages.dots
          : new RegExp(UNSAFE.source).test(name)
            ? messages.control
            : Array.from(name).length > MAX_FILE_NAME_LENGTH
              ? messages.long
              : undefined;
  if (problem) throw new AppError('BAD_REQUEST', problem);
  return name;
}

/** A typed file name (a rename), checked by `checkName`. */
export const checkFileName = (raw: string): string => checkName(raw, 'file');

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

/** RFC 6266 / RFC 8187 Content-Disposition with an ASCII fallback and a UTF-8 `filename*`. */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const fallback = fileName
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_')
    .replace(/[%;]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

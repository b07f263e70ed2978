import { fileTypeFromBuffer } from 'file-type';

/** How many leading bytes are kept to recognise a file's type. */
export const SNIFF_BYTES = 4100;

const TEXT_TYPES: Record<string, string> = {
  json: 'application/json',
  csv: 'text/csv',
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
};

function looksLikeText(head: Uint8Array): boolean {
  if (head.length === 0) return false;
  // Control characters other than tab, line feed, form feed, carriage return and escape mean binary.
  if (head.some((byte) => byte < 0x20 && byte !== 9 && byte !== 10 && byte !== 12 && byte !== 13 && byte !== 27)) {
    return false;
  }
  // A multi-byte character may be cut at the end of the sniffed head.
  const body = head.length >= SNIFF_BYTES ? head.subarray(0, head.length - 3) : head;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * The content type from the file's own bytes (magic numbers via file-type),
 * never from what the client claims. Text is served as a plain text type
 * (never HTML or SVG, so a stored file cannot run script on this origin);
 * the name's extension only picks between plain text, CSV, JSON and Markdown.
 */
export async function detectContentType(head: Uint8Array, fileName: string): Promise<string> {
  const detected = await fileTypeFromBuffer(head).catch(() => undefined);
  if (detected) {
    if (detected.mime === 'image/svg+xml' || detected.mime.includes('html')) return 'text/plain';
    return detected.mime;
  }
  if (looksLikeText(head)) {
    const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
    return TEXT_TYPES[extension] ?? 'text/plain';
  }
  return 'application/octet-stream';
}

import { z } from 'zod';

/** The kinds of file a list or a search can be filtered by. */
export const FileKind = z.enum(['image', 'audio', 'video', 'document', 'other']).meta({ id: 'FileKind' });
export type FileKind = z.infer<typeof FileKind>;

/** Content types (besides `text/*`) that count as documents. */
const DOCUMENT_TYPES = [
  'application/pdf',
  'application/msword',
  'application/rtf',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/json',
  'application/xml',
  'application/epub+zip',
];
/** Content-type prefixes that count as documents (Office Open XML, OpenDocument). */
const DOCUMENT_PREFIXES = [
  'text/',
  'application/vnd.openxmlformats-officedocument.',
  'application/vnd.oasis.opendocument.',
];

/** The kind of a file from its content type: the one rule for the type filter, on the server and in the web app. */
export function fileKindOf(contentType: string): FileKind {
  const type = contentType.toLowerCase().split(';')[0]?.trim() ?? '';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  if (DOCUMENT_TYPES.includes(type) || DOCUMENT_PREFIXES.some((prefix) => type.startsWith(prefix))) return 'document';
  return 'other';
}

/** The patterns a SQL `like` needs for a kind: `[exact types, prefixes]` (server-side filter; `other` is "none"). */
export const FILE_KIND_PATTERNS: Record<Exclude<FileKind, 'other'>, { exact: string[]; prefixes: string[] }> = {
  image: { exact: [], prefixes: ['image/'] },
  audio: { exact: [], prefixes: ['audio/'] },
  video: { exact: [], prefixes: ['video/'] },
  document: { exact: DOCUMENT_TYPES, prefixes: DOCUMENT_PREFIXES },
};

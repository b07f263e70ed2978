import { AppError } from '../../errors';
import type { PageCursor } from './files.repository';
import type { StoredFile } from './stored-file';

/** The opaque cursor of the page after `last` (newest-first keyset: upload date, then id). */
export const encodeCursor = (last: StoredFile): string =>
  Buffer.from(JSON.stringify([last.uploadDate, last.id])).toString('base64url');

/** Reads a cursor back; anything else is a 400 with a way out. */
export function decodeCursor(cursor: string): PageCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { uploadDate: value[0], id: value[1] };
    }
  } catch {
    // fall through
  }
  throw new AppError('BAD_REQUEST', 'The cursor is not valid. Start again from the first page.');
}

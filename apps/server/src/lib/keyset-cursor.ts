import { AppError } from '../errors';

// The opaque cursor of a newest-first keyset page: the last row's time and id (the audit log, activity feeds).

/** The cursor of the page after the row at `at` with `id`. */
export const encodeKeysetCursor = (at: string, id: string): string =>
  Buffer.from(JSON.stringify([at, id])).toString('base64url');

/** Reads a cursor back; anything else is a 400 with a way out. */
export function decodeKeysetCursor(cursor: string): { at: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string'))
      return { at: value[0] as string, id: value[1] as string };
  } catch {
    // answered below
  }
  throw new AppError('BAD_REQUEST', 'The cursor is not valid. Start again from the first page.');
}

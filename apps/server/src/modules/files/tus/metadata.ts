import { Metadata } from '@tus/server';
import { AppError } from '../../../errors';

/** Metadata keys Atrium accepts: visible ASCII, so no key reads as another one once trimmed. */
const METADATA_KEY = /^[!-~]+$/;

/**
 * Reads tus `Upload-Metadata` (comma-separated `key base64value` pairs) with tus's own parser, the one
 * @tus/server stores: what it refuses (a repeated key, a value that is not base64, an empty pair) and
 * keys with blanks or control characters (`\tuserId` is not `userId` to tus) are a 400.
 */
export function readMetadata(header: string): Record<string, string | null> {
  let metadata: Record<string, string | null>;
  try {
    metadata = Metadata.parse(header);
  } catch {
    throw new AppError('BAD_REQUEST', 'Upload-Metadata is not valid tus metadata.');
  }
  if (!Object.keys(metadata).every((key) => METADATA_KEY.test(key))) {
    throw new AppError('BAD_REQUEST', 'Upload-Metadata keys must be printable ASCII without blanks.');
  }
  return metadata;
}

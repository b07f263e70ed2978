import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EmailKind } from '@atrium/contracts';

/**
 * The unsubscribe link's proof (docs/SECURITY.md): HMAC-SHA256 with the session secret over the person and the kind,
 * so a link turns off one kind for one person, needs no sign-in, and cannot be forged or moved to someone else.
 */
export const unsubscribeToken = (secret: string, userId: string, kind: EmailKind) =>
  createHmac('sha256', secret).update(`atrium unsubscribe\n${userId}\n${kind}`).digest('base64url');

export function unsubscribeTokenMatches(secret: string, userId: string, kind: EmailKind, token: string): boolean {
  const expected = Buffer.from(unsubscribeToken(secret, userId, kind));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

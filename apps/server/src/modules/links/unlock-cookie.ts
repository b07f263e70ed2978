import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** How long an unlocked link stays unlocked in a browser (at most until the link expires). */
export const UNLOCK_TTL_MS = 24 * 60 * 60 * 1000;

/** The cookie that unlocks link `linkId` (one per link, so unlocking one opens no other). */
export const unlockCookieName = (linkId: string) => `atrium_link_${linkId}`;

/**
 * Proof that this browser gave a link's password: `<expiry ms>.<HMAC-SHA256>` over the link id, the expiry and the
 * link's password hash, under a key derived from SESSION_SECRET (the secret sessions and sealed cookies use). Any
 * instance can check it; nothing is stored. Changing or removing the password (a new hash) voids every cookie.
 */
export function createUnlocker(secret: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'atrium', 'link-unlock', 32));
  const mac = (linkId: string, expires: number, passwordHash: string) =>
    createHmac('sha256', key).update(`${linkId}\n${expires}\n${passwordHash}`).digest();
  return {
    /** The cookie value for a link just unlocked, and its lifetime in seconds. */
    issue(link: { id: string; passwordHash: string; expiresAt: string | null }, now: Date) {
      const limit = link.expiresAt === null ? Infinity : Date.parse(link.expiresAt);
      const expires = Math.min(now.getTime() + UNLOCK_TTL_MS, limit);
      const value = `${expires}.${mac(link.id, expires, link.passwordHash).toString('base64url')}`;
      return { value, maxAgeSeconds: Math.max(1, Math.floor((expires - now.getTime()) / 1000)) };
    },
    /** Whether `value` unlocks the link now. */
    verify(link: { id: string; passwordHash: string }, value: string | undefined, now: Date): boolean {
      if (!value) return false;
      const [expiresText, signature] = value.split('.');
      const expires = Number(expiresText);
      if (!signature || !Number.isSafeInteger(expires) || expires <= now.getTime()) return false;
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(link.id, expires, link.passwordHash);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

export type Unlocker = ReturnType<typeof createUnlocker>;

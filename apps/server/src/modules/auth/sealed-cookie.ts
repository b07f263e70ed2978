import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Seals small JSON values for short-lived cookies with AES-256-GCM (secret and
 * tamper-proof) under a key derived from SESSION_SECRET, with an expiry inside
 * the sealed value. Used for the OpenID Connect flow state, so any instance
 * can finish a sign-in another instance started.
 */
export function createSealer(secret: string, purpose: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'atrium', `sealed-cookie:${purpose}`, 32));
  return {
    seal(value: unknown, ttlMs: number, now = Date.now()): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const plain = Buffer.from(JSON.stringify({ v: value, exp: now + ttlMs }));
      const encrypted = Buffer.concat([cipher.update(plain), cipher.final()]);
      return [iv, encrypted, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
    },
    /** The sealed value, or undefined when it was tampered with, sealed by another key or has expired. */
    unseal(sealed: string | undefined, now = Date.now()): unknown {
      if (!sealed) return undefined;
      const [iv, encrypted, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
      if (!iv || !encrypted || !tag || iv.length !== 12 || tag.length !== 16) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAuthTag(tag);
        const plain = Buffer.concat([decipher.update(encrypted), decipher.final()]).toString('utf8');
        const parsed = JSON.parse(plain) as { v: unknown; exp: number };
        return typeof parsed.exp === 'number' && parsed.exp > now ? parsed.v : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

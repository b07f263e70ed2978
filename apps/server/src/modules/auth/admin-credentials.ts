import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password, salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );

const PARAMS = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEYLEN = 32;

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time check of a password against a stored hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export interface AdminCredentials {
  username: string;
  passwordHash: string;
  /** Set only when a password was generated on this start: shown once in the log. */
  generatedPassword: string | undefined;
}

/**
 * The built-in admin's credentials: ADMIN_PASSWORD when set, else a strong
 * password generated on first start and kept hashed in DATA_DIR/secrets.
 */
export async function loadAdminCredentials(options: {
  username: string;
  password: string | undefined;
  dataDir: string;
}): Promise<AdminCredentials> {
  if (options.password) {
    return {
      username: options.username,
      passwordHash: await hashPassword(options.password),
      generatedPassword: undefined,
    };
  }
  const file = path.join(options.dataDir, 'secrets', 'admin-password.scrypt');
  if (existsSync(file)) {
    return {
      username: options.username,
      passwordHash: readFileSync(file, 'utf8').trim(),
      generatedPassword: undefined,
    };
  }
  const generated = randomBytes(15).toString('base64url');
  const passwordHash = await hashPassword(generated);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${passwordHash}\n`, { mode: 0o600 });
  return { username: options.username, passwordHash, generatedPassword: generated };
}

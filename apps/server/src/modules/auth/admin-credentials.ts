import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// The hashing lives in lib/passwords.ts (public links' passwords use it too).
import { hashPassword, verifyPassword } from '../../lib/passwords';

export { hashPassword, verifyPassword };

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

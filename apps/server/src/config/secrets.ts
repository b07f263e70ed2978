import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Reads a secret from DATA_DIR/secrets, creating it on first use. Only used
 * outside production: production must be given its secrets explicitly.
 */
export function ensureLocalSecret(
  dataDir: string,
  name: string,
  create = () => randomBytes(32).toString('base64url'),
): string {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const value = create();
  writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
  return value;
}

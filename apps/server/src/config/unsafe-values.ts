import { passwordProblem } from '../lib/passwords';

// Values production refuses at start (docs/DEPLOY.md, "Production checklist"): the placeholders of the shipped
// example files, and secrets too weak to keep their promise. Each problem is one line of the start-up message.

/** A value copied from an example file instead of being chosen: `replace-with-…`, `changeme`, `<…>`, `example`… */
const PLACEHOLDER = /replace[-_ ]?(with|me)|change[-_ ]?me|^<.*>$|\bexample\b|placeholder|^(secret|password|admin)$/i;

export const isPlaceholder = (value: string) => PLACEHOLDER.test(value.trim());

const distinctCharacters = (value: string) => new Set(value).size;

/** On the shipped list of common passwords (lib/passwords.ts, the rule local accounts follow). */
const isCommonPassword = (password: string) => passwordProblem(password) !== undefined;

/** The built-in admin's password in production: chosen (not a placeholder), 12+ characters, not one repeated few. */
export const MIN_PRODUCTION_ADMIN_PASSWORD = 12;

interface SecretsEnv {
  SESSION_SECRET?: string | undefined;
  ADMIN_PASSWORD?: string | undefined;
}

/** Adds one problem per unsafe secret to `problems`; production only (development generates its own). */
export function checkProductionSecrets(env: SecretsEnv, problems: string[]): void {
  const secret = env.SESSION_SECRET;
  if (secret !== undefined) {
    if (isPlaceholder(secret))
      problems.push(
        'SESSION_SECRET: still the placeholder of the example file; generate one with `openssl rand -base64 48`',
      );
    else if (distinctCharacters(secret) < 10)
      problems.push(
        'SESSION_SECRET: too predictable (fewer than 10 different characters); generate one with `openssl rand -base64 48`',
      );
  }
  const password = env.ADMIN_PASSWORD;
  if (password !== undefined) {
    if (isPlaceholder(password))
      problems.push('ADMIN_PASSWORD: still the placeholder of the example file; choose a password of your own');
    else if (password.length < MIN_PRODUCTION_ADMIN_PASSWORD)
      problems.push(`ADMIN_PASSWORD: at least ${MIN_PRODUCTION_ADMIN_PASSWORD} characters in production`);
    else if (isCommonPassword(password))
      problems.push('ADMIN_PASSWORD: one of the most common passwords (the list local accounts are checked against)');
    else if (distinctCharacters(password) < 6)
      problems.push('ADMIN_PASSWORD: too easy to guess (fewer than 6 different characters)');
  }
}

const base64UrlBytes = (value: string): number | undefined =>
  /^[A-Za-z0-9_-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64url').length : undefined;

/**
 * The VAPID key pair's format (RFC 8292: a P-256 public key, uncompressed, 65 bytes starting with 0x04; a 32-byte
 * private key, both base64url): a wrong key would only fail later, at the first push.
 */
export function checkVapidFormat(
  env: { VAPID_PUBLIC_KEY?: string | undefined; VAPID_PRIVATE_KEY?: string | undefined },
  problems: string[],
): void {
  const fix = 'generate a pair with `npx web-push generate-vapid-keys`';
  if (env.VAPID_PUBLIC_KEY !== undefined) {
    const bytes = base64UrlBytes(env.VAPID_PUBLIC_KEY);
    if (isPlaceholder(env.VAPID_PUBLIC_KEY)) problems.push(`VAPID_PUBLIC_KEY: still the placeholder; ${fix}`);
    else if (bytes !== 65 || Buffer.from(env.VAPID_PUBLIC_KEY, 'base64url')[0] !== 0x04)
      problems.push(`VAPID_PUBLIC_KEY: not a P-256 public key (65 bytes, base64url); ${fix}`);
  }
  if (env.VAPID_PRIVATE_KEY !== undefined) {
    if (isPlaceholder(env.VAPID_PRIVATE_KEY)) problems.push(`VAPID_PRIVATE_KEY: still the placeholder; ${fix}`);
    else if (base64UrlBytes(env.VAPID_PRIVATE_KEY) !== 32)
      problems.push(`VAPID_PRIVATE_KEY: not a P-256 private key (32 bytes, base64url); ${fix}`);
  }
}

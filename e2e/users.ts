import { createHash, randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test, type BrowserContext } from '@playwright/test';

/**
 * Signs a browser context in as a new user named `name`, owner key `<prefix>-<run>`, the run being this attempt's own
 * (the time and the retry), so a retry or another run on the same server starts from nothing. Answers both.
 */
export async function signInAsNewUser(
  context: BrowserContext,
  baseURL: string | undefined,
  prefix: string,
  name: string,
) {
  const run = `${Date.now().toString(36)}${test.info().retry}`;
  const ownerKey = `${prefix}-${run}`;
  await signInAsUser(context, String(baseURL), { ownerKey, name });
  return { ownerKey, run };
}

/**
 * Signs a browser context in as a (non-admin, by default) user by inserting a
 * user and a session straight into the e2e server's SQLite database: the
 * built-in login only knows the admin, and identity-provider sign-in is
 * another feature's work. Users get an identity-provider identity (issuer `e2e`, subject the owner key) as if they had signed in
 * there, so the directory of people (`GET /api/users`) lists them.
 */
export async function signInAsUser(
  context: BrowserContext,
  baseURL: string,
  user: { ownerKey: string; name?: string; role?: 'user' | 'admin' },
): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (see e2e/playwright.config.ts)');
  const db = new Database(path.join(dataDir, 'atrium.db'));
  try {
    db.pragma('busy_timeout = 5000');
    const now = new Date();
    const existing = db.prepare('SELECT id FROM users WHERE owner_key = ?').get(user.ownerKey) as
      { id: string } | undefined;
    const userId = existing?.id ?? randomUUID();
    if (!existing) {
      db.prepare(
        `INSERT INTO users (id, owner_key, oidc_issuer, oidc_subject, name, nickname, email, picture, role,
           created_at, updated_at)
         VALUES (?, ?, 'e2e', ?, ?, ?, ?, NULL, ?, ?, ?)`,
      ).run(
        userId,
        user.ownerKey,
        user.ownerKey,
        user.name ?? user.ownerKey,
        user.ownerKey,
        `${user.ownerKey}@example.test`,
        user.role ?? 'user',
        now.toISOString(),
        now.toISOString(),
      );
    }
    const token = randomBytes(32).toString('base64url');
    db.prepare(
      `INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at, user_agent, ip)
       VALUES (?, ?, ?, ?, ?, 'e2e', '127.0.0.1')`,
    ).run(
      createHash('sha256').update(token).digest('hex'),
      userId,
      now.toISOString(),
      now.toISOString(),
      new Date(now.getTime() + 24 * 3600_000).toISOString(),
    );
    await context.addCookies([{ name: 'atrium_session', value: token, url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
  } finally {
    db.close();
  }
}

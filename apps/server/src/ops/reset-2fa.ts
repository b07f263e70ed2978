import type { Db } from '../db';
import type { Clock } from '../lib/time';
import { resetFactors } from '../modules/factors';
import { OpsError } from './backup';

/**
 * `npm run admin -- reset-2fa <username>` (docs/DEPLOY.md): removes a person's authenticator app, recovery codes and
 * passkeys on the server, for someone locked out (the built-in admin's username is `admin`). `username` is the owner
 * key, or an email address.
 */
export async function resetTwoFactor(db: Db, clock: Clock, username: string): Promise<string> {
  const wanted = username.trim();
  const row =
    (await db.selectFrom('users').select(['id', 'owner_key']).where('owner_key', '=', wanted).executeTakeFirst()) ??
    (await db
      .selectFrom('users')
      .select(['id', 'owner_key'])
      .where((eb) => eb(eb.fn('lower', ['email']), '=', wanted.toLowerCase()))
      .executeTakeFirst());
  if (!row) throw new OpsError(`No user named ${wanted}.`);
  const removed = await resetFactors(db, clock, row.id);
  await db
    .insertInto('audit_log')
    .values({
      id: crypto.randomUUID(),
      at: clock.now().toISOString(),
      actor: null,
      action: 'factor.removed',
      target: `user:${row.owner_key}`,
      ip: null,
      user_agent: 'atrium-ops reset-2fa',
      request_id: null,
      details: JSON.stringify({ factor: 'all', by: 'reset-2fa', ...removed }),
      subject: null,
    })
    .execute();
  return `Removed the second factors of ${row.owner_key} (authenticator app: ${removed.totp ? 'yes' : 'none'}, passkeys: ${removed.passkeys}). They sign in with their password alone now.`;
}

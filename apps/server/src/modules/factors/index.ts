/**
 * The second factors' face (docs/PRODUCT.md#second-factors): TOTP (otpauth; the secret sealed with a key derived from
 * SESSION_SECRET; current and previous 30-s step, each step once), ten single-use recovery codes (stored as SHA-256),
 * the admin policy (who must have a factor: nobody, admins, everyone; in `settings` as `mfaPolicy`), and the pending
 * sign-in that follows a right password (`login_challenges`, SHA-256 of the HttpOnly `atrium_pending` cookie's token,
 * five minutes, five tries, plus the sign-in limiter per IP and person). Returns the gate the auth module runs after
 * every right password. `resetFactors` is the ops CLI's `reset-2fa`.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { EventEmitter } from '../../events';
import type { Clock } from '../../lib/time';
import type { SessionControls } from '../../plugins/session';
import { userActor } from '../../auth/actor';
import { createLoginLimiter, type UsersRepository } from '../auth';
import { createFactorsRepository } from './factors.repository';
import { registerFactorsRoutes, type FactorsRoutesDeps } from './factors.routes';
import { registerPasskeysRoutes } from './passkeys.routes';
import { createPasskeyRegistration } from './passkey-registration';
import type { SiteOrigin } from '../../lib/site-origin';
import { createFactorsService } from './factors.service';

export interface FactorsModuleDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'loginRateLimit' | 'session' | 'providerName'>;
  users: UsersRepository;
  sessions: SessionControls;
  events: EventEmitter;
  site: SiteOrigin;
  /**
   * The auth module's check of a person's own password (null: the account has none here), for turning the app off
   * (docs/SECURITY.md, "Second factors and passkeys"). Called only while serving requests: the auth module is created after this one.
   */
  ownPasswordCheck: FactorsRoutesDeps['ownPasswordCheck'];
}

export function createFactorsModule(
  app: FastifyInstance,
  { db, clock, config, users, sessions, events, site, ownPasswordCheck }: FactorsModuleDeps,
) {
  const repo = createFactorsRepository(db);
  const factors = createFactorsService({ repo, clock, sessionSecret: config.session.secret, issuer: 'Atrium' });
  const limiter = createLoginLimiter({ db, clock, ...config.loginRateLimit });
  const loadUser = async (userId: string) => {
    const row = await users.findById(userId);
    if (!row || row.disabled_at !== null) return null;
    await users.recordSignIn(row.id);
    return { user: userActor(row), firstLogin: row.first_login_completed_at === null };
  };
  const registration = createPasskeyRegistration({ repo, clock });
  const gate = registerFactorsRoutes(app, {
    factors,
    repo,
    sessions,
    limiter,
    clock,
    events,
    secureCookies: config.session.cookieSecure,
    loadUser,
    ownPasswordCheck,
    registration,
    site,
  });
  registerPasskeysRoutes(app, { repo, clock, site, sessions, events, limiter, loadUser, registration });
  return { secondFactor: gate };
}

/** Removes every factor of a user (TOTP, recovery codes, passkeys, pending sign-ins): `npm run admin -- reset-2fa`. */
export async function resetFactors(db: Db, clock: Clock, userId: string) {
  const repo = createFactorsRepository(db);
  return createFactorsService({ repo, clock, sessionSecret: 'x'.repeat(32), issuer: 'Atrium' }).resetAll(userId);
}

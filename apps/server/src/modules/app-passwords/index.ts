/**
 * The app-passwords module's face (docs/PRODUCT.md#app-passwords): per-person passwords for WebDAV and sync clients,
 * sent with HTTP Basic (user name: the owner key). `app-passwords.repository.ts` (migration `0035-app-passwords`:
 * SHA-256 of the secret, last use and its IP, revocation), `app-passwords.service.ts` (create → shown once, list,
 * revoke, `verify` for Basic: constant-time name check, disabled people refused, failures counted on the sign-in
 * counters), `app-passwords.routes.ts` (`/api/me/app-passwords`, admins' `/api/admin/app-passwords`; audited
 * `app_password.created`/`.revoked`). Returns the service for the DAV module (and the Nextcloud login flow).
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import type { EventEmitter } from '../../events';
import type { RateLimiter } from '../../lib/rate-limiter';
import type { Clock } from '../../lib/time';
import { createAppPasswordsRepository } from './app-passwords.repository';
import { registerAppPasswordsRoutes } from './app-passwords.routes';
import { createAppPasswordsService, type AppPasswordLimits } from './app-passwords.service';

export type { AppPasswordsService } from './app-passwords.service';

export function createAppPasswordsModule(
  app: FastifyInstance,
  deps: {
    db: Db;
    clock: Clock;
    rateLimiter: RateLimiter;
    config: { loginRateLimit: AppPasswordLimits };
    events: EventEmitter;
  },
) {
  const passwords = createAppPasswordsService({
    repo: createAppPasswordsRepository(deps.db),
    clock: deps.clock,
    limiter: deps.rateLimiter,
    limits: deps.config.loginRateLimit,
  });
  registerAppPasswordsRoutes(app, { passwords, events: deps.events });
  return { appPasswords: passwords };
}

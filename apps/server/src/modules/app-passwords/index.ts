/**
 * The app passwords module's face (docs/PRODUCT.md#app-passwords): secrets a user creates for WebDAV clients and
 * phones, which sign in with HTTP Basic (owner key + app password) instead of the account's sign-in.
 *
 * `app-passwords.repository.ts` (migration `0035-app-passwords`: only the secret's SHA-256 is stored),
 * `app-passwords.service.ts` (create / list / revoke, and `verify(loginName, password, ip)` for the WebDAV and
 * Nextcloud-compatible routes: constant-time owner check, last use recorded, disabled accounts refused, failures
 * counted by the sign-in limiter per IP and login name), `app-passwords.routes.ts` (`/api/me/app-passwords` for the
 * owner, `/api/admin/app-passwords` for admins; created and revoked are audited).
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import type { EventEmitter } from '../../events';
import type { Clock } from '../../lib/time';
import { createAppPasswordsRepository } from './app-passwords.repository';
import { registerAppPasswordsRoutes } from './app-passwords.routes';
import { createAppPasswordsService, type AppPasswordLimiter } from './app-passwords.service';

export function createAppPasswordsModule(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; events: EventEmitter; limiter: AppPasswordLimiter },
) {
  const appPasswords = createAppPasswordsService({
    repo: createAppPasswordsRepository(deps.db),
    clock: deps.clock,
    limiter: deps.limiter,
  });
  registerAppPasswordsRoutes(app, { appPasswords, events: deps.events });
  return { appPasswords };
}

export type { AppPasswordsService } from './app-passwords.service';

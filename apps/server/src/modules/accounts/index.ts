/**
 * The accounts module's face: invitations by email and local accounts (docs/PRODUCT.md#invitations).
 *
 * `accounts.repository.ts`: all SQL of invitations, password reset links and the invitation settings (in the admin's
 * `settings` table). `accounts.service.ts`: tokens (192 bits, stored as SHA-256, compared in constant time, single
 * use), the invitation's states (unknown 404; used, revoked, expired, workspace gone 410 each), accepting (the local
 * account, its membership, then the auth module's `completePasswordLogin`), an identity-provider sign-in with a verified
 * email joining its pending invitations, the admin's local accounts and reset links, "Forgot password?", password
 * changes (other sessions end). Passwords are checked and hashed by `lib/passwords.ts`; sign-in itself is the auth
 * module's `POST /api/auth/login`. `sign-up.service.ts`: self-sign-up to the admin's email domains (a link by email
 * first, then the account). Emits `invitation.sent`, `password.reset.issued` and `signup.requested` for the mail
 * module.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import type { EventEmitter } from '../../events';
import { requestContext } from '../../lib/http/request-context';
import type { Clock } from '../../lib/time';
import type { CompletePasswordLogin, LocalCredentialsRepository, UsersRepository } from '../auth';
import { createAccountsRepository } from './accounts.repository';
import { registerAccountsRoutes } from './accounts.routes';
import { createAccountsService, type AccountsServiceDeps } from './accounts.service';
import { createLocalAccountsService } from './local-accounts.service';
import { createSignUpService } from './sign-up.service';

export interface AccountsModuleDeps extends Pick<
  AccountsServiceDeps,
  | 'ttlDays'
  | 'publicUrl'
  | 'mailEnabled'
  | 'adminUsername'
  | 'authorizeWorkspace'
  | 'endSessions'
  | 'limitPasswordChecks'
> {
  db: Db;
  clock: Clock;
  events: EventEmitter;
  users: UsersRepository;
  credentials: LocalCredentialsRepository;
  completePasswordLogin: CompletePasswordLogin;
  onOidcSignIn(
    hook: (
      user: Parameters<ReturnType<typeof createAccountsService>['joinByVerifiedEmail']>[0],
      profile: { email?: string | undefined; emailVerified?: boolean | undefined },
      request: Parameters<typeof requestContext>[0],
    ) => Promise<void>,
  ): void;
}

export function createAccountsModule(
  app: FastifyInstance,
  { db, completePasswordLogin, onOidcSignIn, ...deps }: AccountsModuleDeps,
) {
  const repo = createAccountsRepository(db);
  const local = createLocalAccountsService({ ...deps, repo });
  const accounts = createAccountsService({ ...deps, repo, local });
  const signUp = createSignUpService({ ...deps, repo, settings: () => accounts.settings(), log: app.log });
  registerAccountsRoutes(app, { accounts, local, signUp, completePasswordLogin });
  onOidcSignIn(async (user, profile, request) => {
    if (profile.email && profile.emailVerified)
      await accounts.joinByVerifiedEmail(user, profile.email, requestContext(request));
  });
  return { accounts };
}

/**
 * The auth module's face: sign-in with the built-in admin's credentials (rate-limited) or with the identity
 * provider (OIDC, or the embedded development provider), sign-out, who is signed in. Sessions themselves are the
 * session plugin's (`plugins/session.ts`), built before every module so each request knows its user.
 *
 * `auth.service.ts`: admin sign-in (scrypt, constant time; failure counters per IP and per username in
 * `login-limiter.ts`, on the shared rate-limit table) and `loginOidc(profile)`: the user found by issuer and subject,
 * or created with a unique owner key; the role set from the configured claim at each sign-in (`claimMeansAdmin`);
 * disabled users refused. `oidc.service.ts` and `oidc.routes.ts`: the relying party (openid-client) as a backend for
 * the frontend — PKCE, state and nonce in a sealed short-lived cookie (`sealed-cookie.ts`), tokens kept on the server,
 * discovery lazy and retried. `auth.routes.ts`: login, logout (the provider's end-session URL for OIDC users), `GET
 * /api/me` with `firstLogin`, the login page's configuration. `sessions.*` and `users.repository.ts` hold the session
 * and user tables (row types in `db/schema/accounts.ts`); ending a session or every session of a user runs the end
 * listeners (streams end on every instance). Details in docs/SECURITY.md.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { SiteOrigin } from '../../lib/site-origin';
import type { Clock } from '../../lib/time';
import type { SessionControls } from '../../plugins/session';
import type { EventEmitter } from '../../events';
import { registerDevIdentityProvider } from '../dev-idp';
import { loadAdminCredentials } from './admin-credentials';
import { passwordLoginCompleter, registerAuthRoutes, type SecondFactorGate } from './auth.routes';
import { createLocalCredentialsRepository } from './local-credentials.repository';
import { createAuthService } from './auth.service';
import { createLoginLimiter } from './login-limiter';
import { registerOidcRoutes, type OidcSignInHook } from './oidc.routes';
import { createOidcService } from './oidc.service';
import type { UsersRepository } from './users.repository';

export interface AuthModuleDeps {
  db: Db;
  clock: Clock;
  config: Pick<
    Config,
    | 'admin'
    | 'dataDir'
    | 'loginRateLimit'
    | 'providerName'
    | 'oidc'
    | 'publicUrl'
    | 'publicUrlConfigured'
    | 'isProduction'
    | 'session'
    | 'trustProxy'
    | 'mail'
  >;
  users: UsersRepository;
  sessions: SessionControls;
  site: SiteOrigin;
  events: EventEmitter;
  /** The second-factor step after a right password (modules/factors). */
  secondFactor?: SecondFactorGate | undefined;
}

export async function createAuthModule(
  app: FastifyInstance,
  { db, clock, config, users, sessions, site, events, secondFactor }: AuthModuleDeps,
) {
  const admin = await loadAdminCredentials({ ...config.admin, dataDir: config.dataDir });
  if (admin.generatedPassword) {
    app.log.warn(
      { username: admin.username, password: admin.generatedPassword },
      'Generated a password for the built-in admin. It is shown only this once; set ADMIN_PASSWORD to choose your own.',
    );
  }
  const limiter = createLoginLimiter({ db, clock, ...config.loginRateLimit });
  const credentials = createLocalCredentialsRepository(db);
  const auth = createAuthService({ users, admin, providerName: config.providerName, limiter, credentials });
  const afterOidcSignIn: OidcSignInHook[] = [];
  const oidc =
    config.oidc &&
    createOidcService({
      ...config.oidc,
      publicUrl: config.publicUrl,
      embedded: config.oidc.mode === 'embedded',
    });
  if (config.oidc?.mode === 'embedded' && oidc) {
    if (config.isProduction) app.log.warn('The development identity provider is enabled in production');
    await registerDevIdentityProvider(app, {
      ...config.oidc,
      publicUrl: config.publicUrl,
      anyOrigin: !config.publicUrlConfigured,
      redirectUri: oidc.redirectUri,
      dataDir: config.dataDir,
      sessionSecret: config.session.secret,
      trustProxy: config.trustProxy.length > 0,
    });
  }
  registerAuthRoutes(app, {
    auth,
    secondFactor,
    sessions,
    authConfig: {
      providerName: config.providerName,
      oidcEnabled: Boolean(oidc),
      mailEnabled: Boolean(config.mail),
      publicUrl: site.fixed,
    },
    async logoutRedirect(user, request) {
      const row = user && oidc ? await users.findById(user.id) : undefined;
      return (row?.oidc_issuer && (await oidc?.endSessionUrl(site.of(request)))) || '/';
    },
    events,
  });
  registerOidcRoutes(app, {
    oidc,
    auth,
    sessions,
    site,
    sessionSecret: config.session.secret,
    secureCookies: config.session.cookieSecure,
    events,
    afterOidcSignIn,
  });
  return {
    loginLimiter: limiter,
    credentials,
    adminUsername: admin.username,
    completePasswordLogin: passwordLoginCompleter({ auth, sessions, events, secondFactor }),
    /** Checks the signed-in person's own password; null when the account has none here. */
    ownPasswordCheck: auth.ownPasswordCheck,
    /** Adds a step after each identity-provider sign-in. */
    onOidcSignIn: (hook: OidcSignInHook) => afterOidcSignIn.push(hook),
  };
}

// What other modules may use (docs/ARCHITECTURE.md#server-layers: only through this face).
export { ADMIN_OWNER_KEY } from './auth.service';
export { sessionIdOf } from './sessions.service';
export type { SessionEnd, SessionService, SessionUser } from './sessions.service';
export type { UsersRepository } from './users.repository';
// For the second factors (modules/factors): the login answer, sealing, the sign-in limiter.
export { presentMe } from './auth.routes';
export type { SecondFactorGate } from './auth.routes';
export { createSealer } from './sealed-cookie';
export { createLoginLimiter, type LoginLimiter } from './login-limiter';
export type { LocalCredentialsRepository } from './local-credentials.repository';
export type { CompletePasswordLogin } from './auth.routes';
export { toSessionUser } from './auth.service';

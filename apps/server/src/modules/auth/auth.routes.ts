import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AuthConfigResponse, ENDPOINTS, type MeResponse } from '@atrium/contracts';
import type { SessionControls } from '../../plugins/session';
import { AppError } from '../../errors';
import type { EventEmitter } from '../../events';
import { changeBy, requestContext } from '../../lib/http/request-context';
import { AccountDisabledError, type AuthService } from './auth.service';
import { isAdmin } from '../../auth/actor';
import type { SessionUser } from './sessions.service';
import { routesOf } from '../../plugins/route';

const E = ENDPOINTS.auth;

export const presentMe = (user: SessionUser, firstLogin: boolean): MeResponse => ({
  id: user.id,
  ownerKey: user.ownerKey,
  name: user.name,
  nickname: user.nickname,
  email: user.email,
  picture: user.picture,
  role: user.role,
  isAdmin: isAdmin(user),
  firstLogin,
});

/**
 * What follows a right password (docs/PRODUCT.md#second-factors): returns when no second factor is due; otherwise
 * starts a pending sign-in (its cookie on `reply`) and throws 401 SECOND_FACTOR_REQUIRED (or
 * SECOND_FACTOR_ENROLMENT_REQUIRED when the policy requires a factor the person has not set up).
 */
export interface SecondFactorGate {
  afterPassword(request: FastifyRequest, reply: FastifyReply, user: SessionUser): Promise<void>;
}

/** The `/api/me` answer for a signed-in user: who they are, whether this is their first sign-in, a local account. */
export const meOf = async (auth: Pick<AuthService, 'isFirstLogin' | 'isLocal'>, user: SessionUser) => ({
  ...presentMe(user, await auth.isFirstLogin(user.id)),
  localAccount: await auth.isLocal(user.id),
});

/**
 * What every password sign-in does once the password is verified (the login form, an accepted invitation): the
 * second-factor gate, then the session, the sign-in recorded, the user answered.
 */
export const passwordLoginCompleter =
  (deps: Pick<AuthRoutesDeps, 'auth' | 'sessions' | 'events' | 'secondFactor'>) =>
  async (user: SessionUser, request: FastifyRequest, reply: FastifyReply): Promise<MeResponse> => {
    // A second factor due (docs/PRODUCT.md#second-factors): a pending sign-in and 401 instead of a session.
    await deps.secondFactor?.afterPassword(request, reply, user);
    await deps.sessions.signIn(request, reply, user.id);
    await deps.events.emit(
      'auth.sign_in',
      changeBy(request, user, { target: `user:${user.ownerKey}`, details: { method: 'password' } }),
    );
    return meOf(deps.auth, user);
  };

export type CompletePasswordLogin = ReturnType<typeof passwordLoginCompleter>;

export interface AuthRoutesDeps {
  /** Every successful password check passes through it before a session starts. */
  secondFactor?: SecondFactorGate | undefined;
  auth: AuthService;
  sessions: SessionControls;
  authConfig: AuthConfigResponse;
  /** Where the browser goes after logout: the provider's end-session URL for OIDC users, else the site. */
  logoutRedirect(user: SessionUser | null, request: FastifyRequest): Promise<string>;
  events: EventEmitter;
}

/** Why an admin sign-in failed, as the audit log records it. */
const failureReason = (error: unknown) =>
  error instanceof AccountDisabledError
    ? 'account_disabled'
    : error instanceof AppError && error.code === 'RATE_LIMITED'
      ? 'rate_limited'
      : error instanceof AppError && error.code === 'INVALID_CREDENTIALS'
        ? 'invalid_credentials'
        : 'error';

export function registerAuthRoutes(app: FastifyInstance, deps: AuthRoutesDeps) {
  const serve = routesOf(app, { config: { access: 'public' }, tags: ['auth'] });
  const completePasswordLogin = passwordLoginCompleter(deps);

  serve(E.config, {
    summary: 'Sign-in options for the login page',
    handler: async () => deps.authConfig,
  });

  serve(E.login, {
    summary: 'Sign in with a password: the built-in admin, or a local account by username or email',
    description: 'Failed attempts are limited per client IP and per username (429 with Retry-After).',
    errors: [401, 429],
    // A client over its per-IP limit is refused before its body is read.
    onRequest: async (request) => {
      try {
        await deps.auth.checkLoginAllowed(request.ip);
      } catch (error) {
        await deps.events.emit('auth.sign_in_failed', {
          actor: null,
          details: { method: 'password', reason: failureReason(error) },
          ...requestContext(request),
        });
        throw error;
      }
    },
    handler: async (request, reply) => {
      let user: SessionUser;
      try {
        user = await deps.auth.loginPassword(request.body.username, request.body.password, request.ip);
      } catch (error) {
        await deps.events.emit('auth.sign_in_failed', {
          actor: null,
          target: `user:${request.body.username.slice(0, 200)}`,
          details: { method: 'password', reason: failureReason(error) },
          ...requestContext(request),
        });
        throw error;
      }
      return completePasswordLogin(user, request, reply);
    },
  });

  serve(E.logout, {
    summary: 'End the session',
    handler: async (request, reply) => {
      const user = await request.currentUser();
      await deps.sessions.signOut(request, reply);
      if (user) await deps.events.emit('auth.sign_out', changeBy(request, user, { target: `user:${user.ownerKey}` }));
      return { ok: true as const, redirectTo: await deps.logoutRedirect(user, request) };
    },
  });

  serve(E.me, {
    config: { access: 'user' },
    summary: 'The signed-in user',
    errors: [401],
    handler: async (request) => {
      const user = await request.requireUser();
      return meOf(deps.auth, user);
    },
  });

  serve(E.firstLogin, {
    config: { access: 'user' },
    summary: "Record that the user's first sign-in was greeted",
    description:
      'The client calls this once it has shown the first-login greeting and subscribed to notifications; ' +
      'from then on `GET /api/me` answers `firstLogin: false` in every browser. Repeating it changes nothing.',
    errors: [401],
    handler: async (request) => {
      const user = await request.requireUser();
      await deps.auth.completeFirstLogin(user.id);
      return { ...(await meOf(deps.auth, user)), firstLogin: false };
    },
  });
}

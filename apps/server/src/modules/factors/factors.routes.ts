import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ENDPOINTS } from '@atrium/contracts';
import { AppError } from '../../errors';
import type { EventEmitter } from '../../events';
import { changeBy } from '../../lib/http/request-context';
import { iso, type Clock } from '../../lib/time';
import { routesOf } from '../../plugins/route';
import type { SessionControls } from '../../plugins/session';
import { presentMe, type LoginLimiter, type SecondFactorGate, type SessionUser } from '../auth';
import type { SiteOrigin } from '../../lib/site-origin';
import type { FactorsRepository } from './factors.repository';
import { relyingPartyOf, type PasskeyRegistration } from './passkey-registration';
import {
  ENROLMENT_MESSAGE,
  MAX_PENDING_ATTEMPTS,
  PENDING_GONE_MESSAGE,
  PENDING_TTL_MS,
  SECOND_FACTOR_MESSAGE,
  type FactorsService,
} from './factors.service';

const E = ENDPOINTS.factors;

/** The pending sign-in's cookie: only the login paths read it. */
export const PENDING_COOKIE = 'atrium_pending';
const PENDING_PATH = '/api/auth/login';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export interface FactorsRoutesDeps {
  factors: FactorsService;
  repo: FactorsRepository;
  sessions: SessionControls;
  limiter: Pick<LoginLimiter, 'consume' | 'reset' | 'checkIp'>;
  clock: Clock;
  events: EventEmitter;
  secureCookies: boolean;
  /** The signed-in form of a user id (null: gone or disabled). */
  loadUser(userId: string): Promise<{ user: SessionUser; firstLogin: boolean } | null>;
  /** The check of the person's own password, counted on the sign-in limiter; null: the account has none here. */
  ownPasswordCheck(user: SessionUser): Promise<((password: string, ip: string) => Promise<boolean>) | null>;
  registration: PasskeyRegistration;
  site: SiteOrigin;
}

export const TOTP_OFF_PASSWORD_MESSAGE = 'Enter your password to turn the authenticator app off.';
export const WRONG_PASSWORD_MESSAGE = 'That password is not right.';

export function registerFactorsRoutes(app: FastifyInstance, deps: FactorsRoutesDeps): SecondFactorGate {
  const { factors, repo, clock } = deps;
  const serveUser = routesOf(app, { config: { access: 'user' }, tags: ['second factors'] });
  const servePublic = routesOf(app, { config: { access: 'public' }, tags: ['auth'] });
  const serveAdmin = routesOf(app, { config: { access: 'admin' }, tags: ['admin'] });
  /** The signed-in user, once a current code (or a recovery code) from their app is checked, on the sign-in limiter. */
  const signedInWithCurrentCode = async (request: FastifyRequest & { body: { code: string } }) => {
    const user = await request.requireUser();
    if (!(await factors.hasTotp(user.id))) throw new AppError('NOT_FOUND', 'No authenticator app is set up.');
    await deps.limiter.consume(request.ip, `factor:${user.id}`);
    await factors.verify(user.id, request.body.code);
    return user;
  };
  const cookieOptions = () => ({
    path: PENDING_PATH,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: deps.secureCookies,
  });

  /** The pending sign-in this browser holds, of `kind`; 401 when it is missing or expired. */
  async function pending(request: FastifyRequest, kind: 'second_factor' | 'enrol') {
    const token = request.cookies[PENDING_COOKIE];
    const row = token ? await repo.findChallenge(sha256(token), iso(clock.now())) : undefined;
    if (!row || row.kind !== kind || !row.user_id) throw new AppError('SIGN_IN_EXPIRED', PENDING_GONE_MESSAGE);
    return { ...row, user_id: row.user_id };
  }

  /** Counts one try, per pending sign-in, per client IP and per person; 429 past the limits. */
  async function countTry(request: FastifyRequest, reply: FastifyReply, id: string, userId: string) {
    await deps.limiter.consume(request.ip, `factor:${userId}`);
    if ((await repo.countAttempt(id)) > MAX_PENDING_ATTEMPTS) {
      await repo.deleteChallenge(id);
      void reply.clearCookie(PENDING_COOKIE, cookieOptions());
      throw new AppError('RATE_LIMITED', 'Too many wrong codes. Please sign in again.');
    }
  }

  async function finish(request: FastifyRequest, reply: FastifyReply, id: string, userId: string, factor: string) {
    await repo.deleteChallenge(id);
    void reply.clearCookie(PENDING_COOKIE, cookieOptions());
    await deps.limiter.reset(request.ip, `factor:${userId}`);
    const loaded = await deps.loadUser(userId);
    if (!loaded) throw new AppError('SIGN_IN_EXPIRED', PENDING_GONE_MESSAGE);
    await deps.sessions.signIn(request, reply, userId);
    await deps.events.emit(
      'auth.sign_in',
      changeBy(request, loaded.user, {
        target: `user:${loaded.user.ownerKey}`,
        details: { method: 'password', factor },
      }),
    );
    return presentMe(loaded.user, loaded.firstLogin);
  }

  serveUser(E.status, {
    summary: 'The signed-in person’s second factors',
    handler: async (request) => {
      const user = await request.requireUser();
      const withPassword = (await deps.ownPasswordCheck(user)) !== null;
      return { ...(await factors.status(user)), turnOffWith: withPassword ? ('password' as const) : ('code' as const) };
    },
  });

  serveUser(E.totpStart, {
    summary: 'Start setting up an authenticator app',
    description:
      'A new secret (base32), its otpauth:// address and a QR code; confirmed by `POST /api/me/totp/verify`.',
    errors: [409],
    handler: async (request) => factors.startTotp(await request.requireUser()),
  });

  serveUser(E.totpVerify, {
    summary: 'Confirm the authenticator app with its first code',
    description: 'Answers ten single-use recovery codes, shown only this once.',
    errors: [400, 409],
    handler: async (request) => {
      const user = await request.requireUser();
      const recoveryCodes = await factors.confirmTotp(user, request.body.code);
      await deps.events.emit(
        'factor.added',
        changeBy(request, user, { target: `user:${user.ownerKey}`, details: { factor: 'totp' } }),
      );
      return { recoveryCodes };
    },
  });

  serveUser(E.totpRemove, {
    summary: 'Turn the authenticator app off',
    description:
      'Asks for the account password (local accounts and the built-in admin), or, for an account of the identity ' +
      'provider (no password here), a current code from the app or a recovery code. Removes the recovery codes too.',
    errors: [400, 403, 404, 429],
    handler: async (request) => {
      const user = await request.requireUser();
      if (!(await factors.hasTotp(user.id))) throw new AppError('NOT_FOUND', 'No authenticator app is set up.');
      const checkPassword = await deps.ownPasswordCheck(user);
      if (checkPassword) {
        // Someone at an unlocked screen may read a code off the phone beside it; the password is what they lack.
        if (request.body.password === undefined) throw new AppError('BAD_REQUEST', TOTP_OFF_PASSWORD_MESSAGE);
        if (!(await checkPassword(request.body.password, request.ip)))
          throw new AppError('FORBIDDEN', WRONG_PASSWORD_MESSAGE);
      } else {
        await deps.limiter.consume(request.ip, `factor:${user.id}`);
        await factors.verify(user.id, request.body.code ?? '');
      }
      await factors.removeTotp(user.id);
      await deps.events.emit(
        'factor.removed',
        changeBy(request, user, { target: `user:${user.ownerKey}`, details: { factor: 'totp' } }),
      );
      return { ok: true as const };
    },
  });

  serveUser(E.recoveryRegenerate, {
    summary: 'New recovery codes (the old ones stop working)',
    description: 'Asks for a current code from the app.',
    errors: [400, 404],
    handler: async (request) => {
      const user = await signedInWithCurrentCode(request);
      const recoveryCodes = await factors.regenerateRecoveryCodes(user.id);
      await deps.events.emit(
        'factor.added',
        changeBy(request, user, { target: `user:${user.ownerKey}`, details: { factor: 'recovery_codes' } }),
      );
      return { recoveryCodes };
    },
  });

  servePublic(E.loginTotp, {
    summary: 'Finish a password sign-in with a code',
    description:
      'After `POST /api/auth/login` answered SECOND_FACTOR_REQUIRED: a code from the authenticator app (current or ' +
      'previous 30-s step, each once) or a recovery code (once). Limited per pending sign-in, client IP and person.',
    errors: [400, 401, 403, 429],
    handler: async (request, reply) => {
      const row = await pending(request, 'second_factor');
      await countTry(request, reply, row.id, row.user_id);
      const factor = await factors.verify(row.user_id, request.body.code);
      return finish(request, reply, row.id, row.user_id, factor);
    },
  });

  servePublic(E.loginEnrolStart, {
    summary: 'Set up an authenticator app to finish a sign-in the policy holds',
    description: 'After `POST /api/auth/login` answered SECOND_FACTOR_ENROLMENT_REQUIRED.',
    errors: [401],
    handler: async (request) => {
      const row = await pending(request, 'enrol');
      const loaded = await deps.loadUser(row.user_id);
      if (!loaded) throw new AppError('SIGN_IN_EXPIRED', PENDING_GONE_MESSAGE);
      const { sealed, enrolment } = await factors.startEnrolmentSecret(loaded.user);
      await repo.setChallenge(row.id, sealed);
      return enrolment;
    },
  });

  servePublic(E.loginEnrolVerify, {
    summary: 'Confirm the authenticator app and finish the sign-in',
    description: 'Answers the signed-in user and ten recovery codes, shown only this once.',
    errors: [400, 401, 403, 409, 429],
    handler: async (request, reply) => {
      const row = await pending(request, 'enrol');
      if (!row.challenge) throw new AppError('CONFLICT', 'Start setting up an authenticator app first.');
      await countTry(request, reply, row.id, row.user_id);
      const recoveryCodes = await factors.confirmEnrolment(row.user_id, row.challenge, request.body.code);
      const me = await finish(request, reply, row.id, row.user_id, 'totp_enrolled');
      await deps.events.emit(
        'factor.added',
        changeBy(request, me, { target: `user:${me.ownerKey}`, details: { factor: 'totp' } }),
      );
      return { ...me, recoveryCodes };
    },
  });

  servePublic(ENDPOINTS.passkeys.enrolOptions, {
    summary: 'Add a passkey to finish a sign-in the policy holds',
    description:
      'After `POST /api/auth/login` answered SECOND_FACTOR_ENROLMENT_REQUIRED: WebAuthn creation options for the ' +
      'person whose password was right (the other way is an authenticator app, `POST /api/auth/login/enrol`).',
    errors: [401],
    handler: async (request) => {
      const row = await pending(request, 'enrol');
      const loaded = await deps.loadUser(row.user_id);
      if (!loaded) throw new AppError('SIGN_IN_EXPIRED', PENDING_GONE_MESSAGE);
      return deps.registration.options(loaded.user, relyingPartyOf(deps.site, request));
    },
  });

  servePublic(ENDPOINTS.passkeys.enrol, {
    summary: 'Register that passkey and finish the sign-in',
    description: 'From now on the passkey signs this person in by itself; the password is followed by nothing more.',
    errors: [400, 401, 403, 409, 429],
    handler: async (request, reply) => {
      const row = await pending(request, 'enrol');
      await countTry(request, reply, row.id, row.user_id);
      const loaded = await deps.loadUser(row.user_id);
      if (!loaded) throw new AppError('SIGN_IN_EXPIRED', PENDING_GONE_MESSAGE);
      const passkey = await deps.registration.register(loaded.user, request.body, relyingPartyOf(deps.site, request));
      const me = await finish(request, reply, row.id, row.user_id, 'passkey_enrolled');
      await deps.events.emit(
        'factor.added',
        changeBy(request, me, { target: `user:${me.ownerKey}`, details: { factor: 'passkey', name: passkey.name } }),
      );
      return me;
    },
  });

  serveAdmin(E.policyGet, {
    summary: 'Who must have a second factor',
    handler: async () => ({ policy: await factors.policy() }),
  });

  serveAdmin(E.policySet, {
    summary: 'Set who must have a second factor',
    description: '`nobody` (default), `admins` or `everyone`. Audited as mfa.policy.changed.',
    errors: [400],
    handler: async (request) => {
      const admin = await request.requireUser();
      const { before, after } = await factors.setPolicy(admin.id, request.body.policy);
      if (before !== after)
        await deps.events.emit(
          'mfa.policy.changed',
          changeBy(request, admin, { target: 'settings:mfaPolicy', details: { from: before, to: after } }),
        );
      return { policy: after };
    },
  });

  return {
    async afterPassword(request, reply, user) {
      const hasFactor = await factors.hasSecondFactor(user.id);
      if (!hasFactor && !(await factors.requiredFor(user))) return;
      // Required, no app, but a passkey: the passkey is the way in (a passkey sign-in needs nothing more).
      if (!hasFactor && (await repo.countPasskeys(user.id)) > 0)
        throw new AppError('FORBIDDEN', 'Your admin requires a second factor: sign in with your passkey.');
      const token = randomBytes(32).toString('base64url');
      await repo.sweepChallenges(iso(clock.now()));
      await repo.insertChallenge({
        id: sha256(token),
        kind: hasFactor ? 'second_factor' : 'enrol',
        user_id: user.id,
        challenge: null,
        attempts: 0,
        expires_at: iso(new Date(clock.now().getTime() + PENDING_TTL_MS)),
      });
      void reply.setCookie(PENDING_COOKIE, token, { ...cookieOptions(), maxAge: PENDING_TTL_MS / 1000 });
      throw hasFactor
        ? new AppError('SECOND_FACTOR_REQUIRED', SECOND_FACTOR_MESSAGE)
        : new AppError('SECOND_FACTOR_ENROLMENT_REQUIRED', ENROLMENT_MESSAGE);
    },
  };
}

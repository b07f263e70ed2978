import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
} from '@simplewebauthn/server';
import { ENDPOINTS } from '@atrium/contracts';
import { AppError } from '../../errors';
import type { EventEmitter } from '../../events';
import { changeBy, requestContext } from '../../lib/http/request-context';
import type { SiteOrigin } from '../../lib/site-origin';
import { iso, type Clock } from '../../lib/time';
import { routesOf } from '../../plugins/route';
import type { SessionControls } from '../../plugins/session';
import { presentMe, type LoginLimiter, type SessionUser } from '../auth';
import type { FactorsRepository } from './factors.repository';
import {
  CEREMONY_MS,
  presentPasskey as present,
  sha256,
  type PasskeyRegistration,
  relyingPartyOf,
} from './passkey-registration';

const E = ENDPOINTS.passkeys;
export const PASSKEY_FAILED_MESSAGE = 'That passkey could not be used to sign in. Try again or use your password.';

export interface PasskeysRoutesDeps {
  repo: FactorsRepository;
  clock: Clock;
  site: SiteOrigin;
  sessions: SessionControls;
  events: EventEmitter;
  limiter: Pick<LoginLimiter, 'checkIp' | 'consume'>;
  loadUser(userId: string): Promise<{ user: SessionUser; firstLogin: boolean } | null>;
  registration: PasskeyRegistration;
}

/**
 * Passkeys (WebAuthn, `@simplewebauthn/server`): register several per person (Profile → Sign-in security), sign in
 * with one alone (a discoverable credential; never asked for a second factor). RP ID: the site's host name
 * (PUBLIC_URL, or the request's origin without it, as `lib/site-origin.ts` decides); challenges single-use, stored
 * hashed in `login_challenges`, five minutes.
 */
export function registerPasskeysRoutes(app: FastifyInstance, deps: PasskeysRoutesDeps) {
  const { repo, clock } = deps;
  const serveUser = routesOf(app, { config: { access: 'user' }, tags: ['second factors'] });
  const servePublic = routesOf(app, { config: { access: 'public' }, tags: ['auth'] });
  const relyingParty = (request: FastifyRequest) => relyingPartyOf(deps.site, request);
  const now = () => iso(clock.now());
  const expires = () => iso(new Date(clock.now().getTime() + CEREMONY_MS));

  const { takeChallenge } = deps.registration;

  serveUser(E.list, {
    summary: 'The signed-in person’s passkeys',
    handler: async (request) => {
      const user = await request.requireUser();
      return { passkeys: (await repo.listPasskeys(user.id)).map(present) };
    },
  });

  serveUser(E.registerOptions, {
    summary: 'Start registering a passkey',
    description: 'WebAuthn creation options for `startRegistration()` of `@simplewebauthn/browser`.',
    handler: async (request) => deps.registration.options(await request.requireUser(), relyingParty(request)),
  });

  serveUser(E.register, {
    summary: 'Finish registering a passkey',
    errors: [400, 409],
    handler: async (request, reply) => {
      const user = await request.requireUser();
      const row = await deps.registration.register(user, request.body, relyingParty(request));
      await deps.events.emit(
        'factor.added',
        changeBy(request, user, { target: `user:${user.ownerKey}`, details: { factor: 'passkey', name: row.name } }),
      );
      void reply.code(201);
      return present(row);
    },
  });

  serveUser(E.rename, {
    summary: 'Rename a passkey',
    errors: [404],
    handler: async (request) => {
      const user = await request.requireUser();
      if (!(await repo.renamePasskey(user.id, request.params.id, request.body.name)))
        throw new AppError('NOT_FOUND', 'No such passkey.');
      const row = await repo.findPasskey(request.params.id);
      if (!row) throw new AppError('NOT_FOUND', 'No such passkey.');
      return present(row);
    },
  });

  serveUser(E.remove, {
    summary: 'Remove a passkey',
    errors: [404],
    handler: async (request) => {
      const user = await request.requireUser();
      const row = await repo.findPasskey(request.params.id);
      if (!row || row.user_id !== user.id || !(await repo.deletePasskey(user.id, row.id)))
        throw new AppError('NOT_FOUND', 'No such passkey.');
      await deps.events.emit(
        'factor.removed',
        changeBy(request, user, { target: `user:${user.ownerKey}`, details: { factor: 'passkey', name: row.name } }),
      );
      return { ok: true as const };
    },
  });

  servePublic(E.signInOptions, {
    summary: 'Start signing in with a passkey',
    description: 'WebAuthn request options for `startAuthentication()`: any passkey of this site (discoverable).',
    errors: [429],
    handler: async (request) => {
      await deps.limiter.checkIp(request.ip);
      const { rpID } = relyingParty(request);
      const options = await generateAuthenticationOptions({ rpID, userVerification: 'preferred' });
      await repo.sweepChallenges(now());
      await repo.insertChallenge({
        id: sha256(options.challenge),
        kind: 'passkey_sign_in',
        user_id: null,
        challenge: null,
        attempts: 0,
        expires_at: expires(),
      });
      return options as unknown as Record<string, unknown>;
    },
  });

  servePublic(E.signIn, {
    summary: 'Sign in with a passkey',
    description: 'A passkey sign-in is complete by itself: no second factor follows.',
    errors: [400, 401, 429],
    handler: async (request, reply) => {
      await deps.limiter.checkIp(request.ip);
      const response = request.body.response as unknown as AuthenticationResponseJSON;
      const refuse = async (reason: string) => {
        await deps.events.emit('auth.sign_in_failed', {
          actor: null,
          details: { method: 'passkey', reason },
          ...requestContext(request),
        });
        return new AppError('INVALID_CREDENTIALS', PASSKEY_FAILED_MESSAGE);
      };
      const challenge = await takeChallenge(response.response.clientDataJSON, 'passkey_sign_in');
      const row = await repo.findPasskey(response.id);
      if (!row) {
        await deps.limiter.consume(request.ip, 'passkey');
        throw await refuse('unknown_passkey');
      }
      const { origin, rpID } = relyingParty(request);
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: {
          id: row.id,
          publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
          counter: row.counter,
          transports: JSON.parse(row.transports) as string[],
        },
        requireUserVerification: false,
      }).catch(() => ({ verified: false as const, authenticationInfo: undefined }));
      if (!verification.verified) throw await refuse('invalid_passkey');
      const loaded = await deps.loadUser(row.user_id);
      if (!loaded) throw await refuse('account_disabled');
      await repo.usePasskey(row.id, verification.authenticationInfo.newCounter, now());
      await deps.sessions.signIn(request, reply, loaded.user.id);
      await deps.events.emit(
        'auth.sign_in',
        changeBy(request, loaded.user, {
          target: `user:${loaded.user.ownerKey}`,
          details: { method: 'passkey', passkey: row.name },
        }),
      );
      return presentMe(loaded.user, loaded.firstLogin);
    },
  });
}

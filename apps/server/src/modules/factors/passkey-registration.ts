import { createHash } from 'node:crypto';
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Passkey } from '@atrium/contracts';
import type { FastifyRequest } from 'fastify';
import type { SiteOrigin } from '../../lib/site-origin';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import type { PasskeysTable } from '../../db/schema';
import type { FactorsRepository } from './factors.repository';

/** How long a WebAuthn ceremony may take. */
export const CEREMONY_MS = 5 * 60_000;
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export const presentPasskey = (row: PasskeysTable): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/** The challenge the browser signed (clientDataJSON, base64url JSON); '' when unreadable. */
export function challengeOf(clientDataJSON: unknown): string {
  try {
    const parsed = JSON.parse(Buffer.from(String(clientDataJSON), 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof parsed.challenge === 'string' ? parsed.challenge : '';
  } catch {
    return '';
  }
}

export interface RelyingParty {
  origin: string;
  rpID: string;
}

/** The relying party: the site's host (PUBLIC_URL, or the address the page was opened at without it). */
export const relyingPartyOf = (site: SiteOrigin, request: FastifyRequest): RelyingParty => {
  const origin = site.of(request);
  return { origin, rpID: new URL(origin).hostname };
};

interface Registrant {
  id: string;
  ownerKey: string;
  name: string | null;
}

/**
 * Registering a passkey (WebAuthn, `@simplewebauthn/server`), for a signed-in person (Profile → Sign-in security) and
 * for a sign-in the second-factor policy holds (docs/PRODUCT.md#second-factors): the same options and checks.
 */
export function createPasskeyRegistration({ repo, clock }: { repo: FactorsRepository; clock: Clock }) {
  const now = () => iso(clock.now());

  /** Takes the challenge the browser signed, of `kind` (and of `userId` when given); 400 when it is not one. */
  async function takeChallenge(clientDataJSON: unknown, kind: 'passkey_register' | 'passkey_sign_in', userId?: string) {
    const challenge = challengeOf(clientDataJSON);
    const row = challenge ? await repo.takeChallenge(sha256(challenge), kind, now()) : null;
    if (!row || (userId !== undefined && row.user_id !== userId))
      throw new AppError('BAD_REQUEST', 'This passkey request expired. Please try again.');
    return challenge;
  }

  return {
    takeChallenge,

    /** WebAuthn creation options for `startRegistration()`; the challenge is kept (hashed) for five minutes. */
    async options(user: Registrant, { rpID }: RelyingParty) {
      const existing = await repo.listPasskeys(user.id);
      const options = await generateRegistrationOptions({
        rpName: 'Atrium',
        rpID,
        userName: user.ownerKey,
        userDisplayName: user.name ?? user.ownerKey,
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({ id: row.id, transports: JSON.parse(row.transports) as string[] })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      });
      await repo.sweepChallenges(now());
      await repo.insertChallenge({
        id: sha256(options.challenge),
        kind: 'passkey_register',
        user_id: user.id,
        challenge: null,
        attempts: 0,
        expires_at: iso(new Date(clock.now().getTime() + CEREMONY_MS)),
      });
      return options as unknown as Record<string, unknown>;
    },

    /** Checks the browser's answer to those options and stores the passkey (400 / 409 when it cannot). */
    async register(user: Registrant, body: { response: unknown; name?: string | undefined }, rp: RelyingParty) {
      const response = body.response as RegistrationResponseJSON;
      const challenge = await takeChallenge(response.response.clientDataJSON, 'passkey_register', user.id);
      const verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        requireUserVerification: false,
      }).catch(() => ({ verified: false as const, registrationInfo: undefined }));
      if (!verification.verified)
        throw new AppError('BAD_REQUEST', 'The passkey could not be verified. Please try again.');
      const { credential } = verification.registrationInfo;
      if (await repo.findPasskey(credential.id)) throw new AppError('CONFLICT', 'This passkey is registered already.');
      const count = (await repo.listPasskeys(user.id)).length;
      const row: PasskeysTable = {
        id: credential.id,
        user_id: user.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? []),
        name: body.name ?? `Passkey ${count + 1}`,
        created_at: now(),
        last_used_at: null,
      };
      await repo.insertPasskey(row);
      return row;
    },
  };
}

export type PasskeyRegistration = ReturnType<typeof createPasskeyRegistration>;

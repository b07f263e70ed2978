import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { MfaPolicy, TotpEnrolment } from '@atrium/contracts';
import { AppError } from '../../errors';
import { iso, type Clock } from '../../lib/time';
import { createSealer } from '../auth';
import type { FactorsRepository } from './factors.repository';

/** How long a pending sign-in waits for its code. */
export const PENDING_TTL_MS = 5 * 60_000;
/** Wrong codes one pending sign-in may try before the password must be entered again. */
export const MAX_PENDING_ATTEMPTS = 5;
const STEP_SECONDS = 30;
const POLICY_KEY = 'mfaPolicy';

export const INVALID_CODE_MESSAGE = 'That code is not right. Check your authenticator app and try again.';
export const SECOND_FACTOR_MESSAGE = 'Enter the 6-digit code from your authenticator app.';
export const ENROLMENT_MESSAGE =
  'Set up an authenticator app to finish signing in: your admin requires a second factor.';
export const PENDING_GONE_MESSAGE = 'This sign-in has expired. Please enter your password again.';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
/** Recovery codes are compared without case, spaces or dashes. */
const normalizeRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** Ten random codes, `xxxxx-xxxxx` (lower-case base32: 50 bits each). */
function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return Array.from({ length: 10 }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => alphabet[b % 32]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

export interface FactorsServiceDeps {
  repo: FactorsRepository;
  clock: Clock;
  sessionSecret: string;
  /** The issuer shown in the authenticator app. */
  issuer: string;
}

export interface FactorUser {
  id: string;
  ownerKey: string;
  role: 'user' | 'admin';
}

/** TOTP (RFC 6238, 30-s steps, 6 digits, SHA-1), recovery codes, the policy and pending sign-ins. */
export function createFactorsService({ repo, clock, sessionSecret, issuer }: FactorsServiceDeps) {
  const sealer = createSealer(sessionSecret, 'totp-secret');
  // Sealed for ~100 years: the sealer's expiry does not apply to a stored factor.
  const seal = (base32: string) => sealer.seal(base32, 100 * 365 * 24 * 3600_000, 0);
  const unseal = (sealed: string) => {
    const value = sealer.unseal(sealed, 1);
    if (typeof value !== 'string') throw new AppError('INTERNAL', 'The stored authenticator secret cannot be read.');
    return value;
  };
  const totpOf = (base32: string, label: string) =>
    new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: STEP_SECONDS, secret: Secret.fromBase32(base32) });
  const now = () => clock.now();

  /** The step a six-digit code matches (the current one or the previous), or null. */
  function matchingStep(base32: string, code: string): number | null {
    if (!/^\d{6}$/.test(code)) return null;
    const timestamp = now().getTime();
    const current = Math.floor(timestamp / 1000 / STEP_SECONDS);
    const totp = totpOf(base32, 'x');
    for (const step of [current, current - 1]) {
      if (totp.generate({ timestamp: step * STEP_SECONDS * 1000 }) === code) return step;
    }
    return null;
  }

  async function enrolment(user: FactorUser, base32: string): Promise<TotpEnrolment> {
    const otpauthUrl = totpOf(base32, user.ownerKey).toString();
    const qrCode = `data:image/svg+xml;base64,${Buffer.from(await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1 })).toString('base64')}`;
    return { secret: base32, otpauthUrl, qrCode };
  }

  const service = {
    async policy(): Promise<MfaPolicy> {
      const stored = await repo.getSetting(POLICY_KEY);
      return stored === 'admins' || stored === 'everyone' ? stored : 'nobody';
    },

    async setPolicy(actorId: string, policy: MfaPolicy) {
      const before = await service.policy();
      await repo.setSetting(POLICY_KEY, policy, actorId, iso(now()));
      return { before, after: policy };
    },

    async requiredFor(user: FactorUser): Promise<boolean> {
      const policy = await service.policy();
      return policy === 'everyone' || (policy === 'admins' && user.role === 'admin');
    },

    async hasTotp(userId: string): Promise<boolean> {
      const row = await repo.findTotp(userId);
      return Boolean(row?.confirmed_at);
    },

    /** Whether the person has a factor a password sign-in must be followed by (TOTP today; passkeys sign in alone). */
    hasSecondFactor: (userId: string) => service.hasTotp(userId),

    async status(user: FactorUser) {
      return {
        totp: await service.hasTotp(user.id),
        recoveryCodesLeft: await repo.recoveryCodesLeft(user.id),
        required: await service.requiredFor(user),
      };
    },

    /** A new secret waiting for its first code; refused while an app is confirmed (turn it off first). */
    async startTotp(user: FactorUser): Promise<TotpEnrolment> {
      if (await service.hasTotp(user.id))
        throw new AppError('CONFLICT', 'An authenticator app is already set up. Turn it off first to set up another.');
      const base32 = new Secret({ size: 20 }).base32;
      await repo.putPendingTotp(user.id, seal(base32), iso(now()));
      return enrolment(user, base32);
    },

    /** A secret for a pending enrolment sign-in, kept sealed in the challenge row (nothing stored on the user yet). */
    async startEnrolmentSecret(user: FactorUser): Promise<{ sealed: string; enrolment: TotpEnrolment }> {
      const base32 = new Secret({ size: 20 }).base32;
      return { sealed: seal(base32), enrolment: await enrolment(user, base32) };
    },

    /** Confirms the pending secret with its first code; answers the ten recovery codes (shown once). */
    async confirmTotp(user: FactorUser, code: string): Promise<string[]> {
      const row = await repo.findTotp(user.id);
      if (!row || row.confirmed_at) throw new AppError('CONFLICT', 'Start setting up an authenticator app first.');
      const step = matchingStep(unseal(row.secret), code.trim());
      if (step === null || !(await repo.useStep(user.id, step, iso(now()))))
        throw new AppError('INVALID_CODE', INVALID_CODE_MESSAGE);
      return service.regenerateRecoveryCodes(user.id);
    },

    /** Stores a secret confirmed during a pending enrolment sign-in (its code already checked). */
    async confirmEnrolment(userId: string, sealed: string, code: string): Promise<string[]> {
      const step = matchingStep(unseal(sealed), code.trim());
      if (step === null) throw new AppError('INVALID_CODE', INVALID_CODE_MESSAGE);
      await repo.deleteTotp(userId);
      await repo.putPendingTotp(userId, sealed, iso(now()));
      if (!(await repo.useStep(userId, step, iso(now())))) throw new AppError('INVALID_CODE', INVALID_CODE_MESSAGE);
      return service.regenerateRecoveryCodes(userId);
    },

    async regenerateRecoveryCodes(userId: string): Promise<string[]> {
      const codes = newRecoveryCodes();
      await repo.replaceRecoveryCodes(
        userId,
        codes.map((code) => sha256(normalizeRecovery(code))),
        iso(now()),
      );
      return codes;
    },

    /**
     * Checks a code from the app (current or previous step, each step once) or a recovery code (once); answers which
     * it was, or throws 400 INVALID_CODE.
     */
    async verify(userId: string, code: string): Promise<'totp' | 'recovery_code'> {
      const trimmed = code.trim();
      const row = await repo.findTotp(userId);
      if (row?.confirmed_at && /^\d{6}$/.test(trimmed)) {
        const step = matchingStep(unseal(row.secret), trimmed);
        if (step !== null && (await repo.useStep(userId, step))) return 'totp';
        throw new AppError('INVALID_CODE', INVALID_CODE_MESSAGE);
      }
      const normalized = normalizeRecovery(trimmed);
      if (normalized.length === 10 && (await repo.useRecoveryCode(userId, sha256(normalized), iso(now()))))
        return 'recovery_code';
      throw new AppError('INVALID_CODE', INVALID_CODE_MESSAGE);
    },

    async removeTotp(userId: string) {
      await repo.deleteTotp(userId);
      await repo.deleteRecoveryCodes(userId);
    },

    /** Every factor of the person (the ops CLI's reset-2fa); answers what was removed. */
    async resetAll(userId: string) {
      const totp = await service.hasTotp(userId);
      const passkeys = await repo.countPasskeys(userId);
      await repo.deleteTotp(userId);
      await repo.deleteRecoveryCodes(userId);
      await repo.deletePasskeys(userId);
      await repo.deleteChallengesOf(userId);
      return { totp, passkeys };
    },
  };
  return service;
}

export type FactorsService = ReturnType<typeof createFactorsService>;

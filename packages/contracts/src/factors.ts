import { z } from 'zod';
import { endpoint } from './endpoint';
import { MeResponse } from './me';
import { OkResponse } from './auth';

/**
 * Second factors (docs/PRODUCT.md#second-factors): TOTP with ten single-use recovery codes, and the second step of a
 * password sign-in. A password sign-in of someone with a factor answers 401 `SECOND_FACTOR_REQUIRED` and sets a
 * short-lived HttpOnly pending cookie; `POST /api/auth/login/totp` finishes it.
 */

/** A six-digit code from the authenticator app, or one of the recovery codes (`xxxxx-xxxxx`). */
export const FactorCodeRequest = z
  .object({ code: z.string().trim().min(1, 'Enter the code').max(100) })
  .meta({ id: 'FactorCodeRequest' });
export type FactorCodeRequest = z.infer<typeof FactorCodeRequest>;

/** POST /api/me/totp: a new, not yet confirmed secret (base32) and its `otpauth://` address (for the QR code). */
export const TotpEnrolment = z
  .object({
    secret: z.string().describe('Base32, for typing into the app by hand'),
    otpauthUrl: z.string().describe('otpauth://totp/… — what the QR code holds'),
    qrCode: z.string().describe('The QR code of otpauthUrl as an SVG data URL'),
  })
  .meta({ id: 'TotpEnrolment' });
export type TotpEnrolment = z.infer<typeof TotpEnrolment>;

/** Ten single-use recovery codes, shown once. */
export const RecoveryCodesResponse = z
  .object({ recoveryCodes: z.array(z.string()).length(10) })
  .meta({ id: 'RecoveryCodes' });
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponse>;

/** GET /api/me/second-factors: what the person has (Profile → Sign-in security). */
export const SecondFactorsResponse = z
  .object({
    totp: z.boolean().describe('An authenticator app is confirmed'),
    recoveryCodesLeft: z.number().int(),
    required: z.boolean().describe('The admin policy requires a second factor of this person'),
    turnOffWith: z
      .enum(['password', 'code'])
      .describe(
        'What turning the app off asks for: the account password (local accounts, the built-in admin) or a current ' +
          'code or recovery code (accounts of the identity provider, which have no password here)',
      ),
  })
  .meta({ id: 'SecondFactors' });
export type SecondFactorsResponse = z.infer<typeof SecondFactorsResponse>;

/** DELETE /api/me/totp: the account password (accounts with one), else a current code or a recovery code. */
export const TotpOffRequest = z
  .object({
    password: z.string().min(1, 'Enter your password').max(1000).optional(),
    code: z.string().trim().min(1, 'Enter the code').max(100).optional(),
  })
  .refine((body) => body.password !== undefined || body.code !== undefined, {
    message: 'Enter your password or a code',
  })
  .meta({ id: 'TotpOffRequest' });
export type TotpOffRequest = z.infer<typeof TotpOffRequest>;

/** Who must have a second factor (admin settings). */
export const MFA_POLICIES = ['nobody', 'admins', 'everyone'] as const;
export const MfaPolicy = z.enum(MFA_POLICIES);
export type MfaPolicy = z.infer<typeof MfaPolicy>;

export const MfaPolicyResponse = z.object({ policy: MfaPolicy }).meta({ id: 'MfaPolicy' });
export type MfaPolicyResponse = z.infer<typeof MfaPolicyResponse>;

/** The login answer when the policy requires a factor and the person has none: enrol first (pending sign-in). */
export const PendingEnrolmentResponse = MeResponse.extend({ recoveryCodes: z.array(z.string()).length(10) }).meta({
  id: 'SignedInWithRecoveryCodes',
});

export const factorsEndpoints = {
  status: endpoint({ method: 'GET', path: '/api/me/second-factors', response: SecondFactorsResponse }),
  totpStart: endpoint({ method: 'POST', path: '/api/me/totp', response: TotpEnrolment }),
  totpVerify: endpoint({
    method: 'POST',
    path: '/api/me/totp/verify',
    body: FactorCodeRequest,
    response: RecoveryCodesResponse,
  }),
  /** Turning the app off asks for the account password, or (no password here) a current or recovery code. */
  totpRemove: endpoint({ method: 'DELETE', path: '/api/me/totp', body: TotpOffRequest, response: OkResponse }),
  recoveryRegenerate: endpoint({
    method: 'POST',
    path: '/api/me/recovery-codes',
    body: FactorCodeRequest,
    response: RecoveryCodesResponse,
  }),
  /** The second step of a password sign-in (the pending cookie the login set). */
  loginTotp: endpoint({ method: 'POST', path: '/api/auth/login/totp', body: FactorCodeRequest, response: MeResponse }),
  /** Policy requires a factor, the person has none: a secret for the pending sign-in. */
  loginEnrolStart: endpoint({ method: 'POST', path: '/api/auth/login/enrol', response: TotpEnrolment }),
  /** Confirms that secret: the sign-in completes and the recovery codes are shown. */
  loginEnrolVerify: endpoint({
    method: 'POST',
    path: '/api/auth/login/enrol/verify',
    body: FactorCodeRequest,
    response: PendingEnrolmentResponse,
  }),
  policyGet: endpoint({ method: 'GET', path: '/api/admin/second-factor-policy', response: MfaPolicyResponse }),
  policySet: endpoint({
    method: 'PUT',
    path: '/api/admin/second-factor-policy',
    body: MfaPolicyResponse,
    response: MfaPolicyResponse,
  }),
} as const;

/** A registered passkey, as Profile → Sign-in security lists it. */
export const Passkey = z
  .object({
    id: z.string().describe('The credential id (base64url)'),
    name: z.string(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
  })
  .meta({ id: 'Passkey' });
export type Passkey = z.infer<typeof Passkey>;

export const PasskeyList = z.object({ passkeys: z.array(Passkey) }).meta({ id: 'PasskeyList' });
export type PasskeyList = z.infer<typeof PasskeyList>;

export const PasskeyName = z.string().trim().min(1, 'Enter a name').max(100);

/** WebAuthn options as `@simplewebauthn/server` makes them (passed to the browser library as they are). */
export const WebAuthnOptions = z.record(z.string(), z.unknown()).meta({ id: 'WebAuthnOptions' });
export type WebAuthnOptions = z.infer<typeof WebAuthnOptions>;

/** The browser's answer to a ceremony (`startRegistration` / `startAuthentication` of `@simplewebauthn/browser`). */
const WebAuthnResponse = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key'),
    response: z.record(z.string(), z.unknown()),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.string().max(50).optional(),
  })
  .passthrough();

export const PasskeyRegisterRequest = z
  .object({ response: WebAuthnResponse, name: PasskeyName.optional() })
  .meta({ id: 'PasskeyRegisterRequest' });
export const PasskeySignInRequest = z.object({ response: WebAuthnResponse }).meta({ id: 'PasskeySignInRequest' });
export const PasskeyRenameRequest = z.object({ name: PasskeyName }).meta({ id: 'PasskeyRenameRequest' });
export const PasskeyParams = z.object({ id: z.string().min(1).max(1024) });

export const passkeyEndpoints = {
  list: endpoint({ method: 'GET', path: '/api/me/passkeys', response: PasskeyList }),
  registerOptions: endpoint({ method: 'POST', path: '/api/me/passkeys/options', response: WebAuthnOptions }),
  register: endpoint({
    method: 'POST',
    path: '/api/me/passkeys',
    body: PasskeyRegisterRequest,
    response: Passkey,
    status: 201,
  }),
  rename: endpoint({
    method: 'PATCH',
    path: '/api/me/passkeys/:id',
    params: PasskeyParams,
    body: PasskeyRenameRequest,
    response: Passkey,
  }),
  remove: endpoint({ method: 'DELETE', path: '/api/me/passkeys/:id', params: PasskeyParams, response: OkResponse }),
  /** Policy requires a factor, the person has none: a passkey registered for the pending sign-in finishes it. */
  enrolOptions: endpoint({ method: 'POST', path: '/api/auth/login/enrol/passkey/options', response: WebAuthnOptions }),
  enrol: endpoint({
    method: 'POST',
    path: '/api/auth/login/enrol/passkey',
    body: PasskeyRegisterRequest,
    response: MeResponse,
  }),
  /** Sign in with a passkey alone (a discoverable credential): never asked for a second factor. */
  signInOptions: endpoint({ method: 'POST', path: '/api/auth/passkey/options', response: WebAuthnOptions }),
  signIn: endpoint({
    method: 'POST',
    path: '/api/auth/passkey/verify',
    body: PasskeySignInRequest,
    response: MeResponse,
  }),
} as const;

// Second factors (migration 0033, docs/PRODUCT.md#second-factors): TOTP, recovery codes, passkeys, pending sign-ins.

/** A person's authenticator app. The secret is sealed (AES-256-GCM, key derived from SESSION_SECRET). */
export interface TotpFactorsTable {
  user_id: string;
  secret: string;
  created_at: string;
  /** Null while enrolment waits for its first code. */
  confirmed_at: string | null;
  /** The last accepted 30-s step: a code of that step or an earlier one is refused (no replay). */
  last_used_step: number | null;
}

/** A single-use recovery code, stored as its SHA-256 (hex). */
export interface RecoveryCodesTable {
  code_hash: string;
  user_id: string;
  created_at: string;
  used_at: string | null;
}

/** A WebAuthn credential (passkey). */
export interface PasskeysTable {
  /** The credential id, base64url. */
  id: string;
  user_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON array of transports. */
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/**
 * A pending sign-in (`second_factor`: the password was right, a code must follow; `enrol`: the policy requires a
 * factor the person has not set up) or a WebAuthn challenge. `id`: SHA-256 of the token the browser holds.
 */
export interface LoginChallengesTable {
  id: string;
  kind: 'second_factor' | 'enrol' | 'passkey_register' | 'passkey_sign_in';
  user_id: string | null;
  /** The enrolment's sealed secret, or the WebAuthn challenge. */
  challenge: string | null;
  attempts: number;
  expires_at: string;
}

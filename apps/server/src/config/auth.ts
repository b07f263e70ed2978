import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { booleanString, documented } from './env';

// Signing in: sessions, the built-in admin, the sign-in limits and OpenID Connect.

/** Sessions, the built-in admin, sign-in limits and the OpenID Connect provider. */
export const authEnv = {
  SESSION_SECRET: documented(
    z.string().min(32, 'must be at least 32 characters').optional(),
    '32+ characters; required in production',
    'generated in `DATA_DIR/secrets`',
  ),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 24)
    .describe('a session ends after this long without a request'),
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 14)
    .describe('a session ends this long after sign-in, whatever happens'),
  ADMIN_USERNAME: z.string().min(1).default('admin').describe('username of the built-in admin'),
  ADMIN_PASSWORD: documented(
    z.string().min(8, 'must be at least 8 characters').optional(),
    'password of the built-in admin (8+ characters)',
    'generated on first start, printed once in the log',
  ),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce
    .number()
    .int()
    .positive()
    .default(10)
    .describe('failed admin sign-ins allowed per window and client IP; then `429` with `Retry-After`'),
  LOGIN_MAX_FAILURES_PER_USERNAME: z.coerce
    .number()
    .int()
    .positive()
    .default(20)
    .describe('failed admin sign-ins allowed per window and username; then `429` with `Retry-After`'),
  LOGIN_FAILURE_WINDOW_MINUTES: z.coerce
    .number()
    .int()
    .positive()
    .default(15)
    .describe('the sign-in rate-limit window (counted in the database: shared by every instance)'),
  OIDC_ISSUER: z
    .url()
    .optional()
    .describe(
      'an OpenID Connect provider (set `OIDC_ISSUER`, `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET`, or none); see *Signing in with Auth0*',
    ),
  OIDC_CLIENT_ID: z.string().min(1).optional().describe("Atrium's client id at the provider"),
  OIDC_CLIENT_SECRET: z.string().min(1).optional().describe("Atrium's client secret at the provider"),
  OIDC_PROVIDER_NAME: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .default('Auth0')
    .describe("the provider's name on the login page and in its messages"),
  OIDC_SCOPES: z.string().min(1).default('openid profile email').describe('scopes requested from the provider'),
  OIDC_ADMIN_CLAIM: documented(
    z.string().trim().min(1).max(100).optional(),
    "claim (ID token or userinfo, e.g. `groups` or `roles`) whose values make a user an admin at each sign-in; set: the provider decides every OIDC user's role",
    '`groups` with the embedded development provider, else unset (roles are set by hand)',
  ),
  OIDC_ADMIN_VALUES: documented(
    z.string().trim().max(2000).optional(),
    'comma-separated values of `OIDC_ADMIN_CLAIM` that mean admin',
    '`atrium-admins` with the embedded development provider',
  ),
  DEV_OIDC_PROVIDER: documented(
    booleanString.optional(),
    '`true`/`false`: force the embedded development identity provider on or off',
    'on outside production when `OIDC_ISSUER` is unset',
  ),
};

type AuthEnv = z.infer<z.ZodObject<typeof authEnv>>;

export type SessionConfig = { secret: string; idleMs: number; absoluteMs: number; cookieSecure: boolean };
export type AdminConfig = { username: string; password: string | undefined };
/** Failed admin logins allowed per window, per client IP and per username. */
export type LoginRateLimitConfig = { maxPerIp: number; maxPerUsername: number; windowMs: number };

/**
 * OpenID Connect sign-in. `external`: a real issuer (Auth0…); `embedded`: the
 * development provider mounted at /oidc on this server; undefined: OIDC off.
 */
export type OidcConfig =
  | {
      mode: 'external' | 'embedded';
      issuer: string;
      clientId: string;
      clientSecret: string;
      scopes: string;
      providerName: string;
      /** `OIDC_ADMIN_CLAIM`: undefined = roles are not mapped from the provider. */
      adminClaim: string | undefined;
      /** `OIDC_ADMIN_VALUES`. */
      adminValues: string[];
    }
  | undefined;

/** Lists what is missing or contradictory in the OpenID Connect settings. */
export function checkOidc(env: AuthEnv, problems: string[]): void {
  const oidcVars = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
  if (oidcVars.some(Boolean) && !oidcVars.every(Boolean))
    problems.push('OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: set all three, or none');
  if (env.OIDC_ADMIN_CLAIM && !env.OIDC_ADMIN_VALUES?.split(',').some((value) => value.trim()))
    problems.push('OIDC_ADMIN_VALUES: required when OIDC_ADMIN_CLAIM is set (comma-separated values that mean admin)');
  if (env.OIDC_ISSUER && env.DEV_OIDC_PROVIDER)
    problems.push('DEV_OIDC_PROVIDER: cannot be enabled together with OIDC_ISSUER');
}

/**
 * The OpenID Connect sign-in: the external issuer when it is set, else the embedded development provider (on
 * outside production unless DEV_OIDC_PROVIDER says otherwise), else none.
 */
export function resolveOidc(
  env: AuthEnv,
  site: { isProduction: boolean; publicUrl: string; sessionSecret: string },
): OidcConfig {
  const { isProduction, publicUrl, sessionSecret } = site;
  const embedded = !env.OIDC_ISSUER && (env.DEV_OIDC_PROVIDER ?? !isProduction);
  const adminClaim = env.OIDC_ADMIN_CLAIM ?? (embedded && !env.OIDC_ISSUER ? 'groups' : undefined);
  const adminValues = (env.OIDC_ADMIN_VALUES ?? (env.OIDC_ADMIN_CLAIM ? '' : 'atrium-admins'))
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  if (env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET)
    return {
      mode: 'external',
      issuer: env.OIDC_ISSUER,
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
      scopes: env.OIDC_SCOPES,
      providerName: env.OIDC_PROVIDER_NAME,
      adminClaim,
      adminValues,
    };
  if (!embedded) return undefined;
  return {
    mode: 'embedded',
    issuer: `${publicUrl}/oidc`,
    clientId: 'atrium',
    clientSecret: createHmac('sha256', sessionSecret).update('atrium dev OIDC client').digest('base64url'),
    scopes: env.OIDC_SCOPES,
    providerName: env.OIDC_PROVIDER_NAME,
    adminClaim,
    adminValues,
  };
}

import { z } from 'zod';
import { endpoint } from './endpoint';
import { MeResponse } from './me';

export const LoginRequest = z
  .object({
    username: z.string().trim().min(1, 'Username is required').max(200),
    password: z.string().min(1, 'Password is required').max(1000),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof LoginRequest>;

export const OkResponse = z.object({ ok: z.literal(true) }).meta({ id: 'OkResponse' });
export type OkResponse = z.infer<typeof OkResponse>;

/** POST /api/auth/logout: the browser then goes to redirectTo (the identity provider's logout, or the site origin). */
export const LogoutResponse = z.object({ ok: z.literal(true), redirectTo: z.string() }).meta({ id: 'LogoutResponse' });
export type LogoutResponse = z.infer<typeof LogoutResponse>;

/** GET /api/auth/config: what the login page needs before anyone signs in. */
export const AuthConfigResponse = z
  .object({
    providerName: z.string().describe('Shown on the "Continue with …" button, e.g. Auth0'),
    oidcEnabled: z.boolean().describe('Whether sign-in with the identity provider is available'),
    mailEnabled: z
      .boolean()
      .optional()
      .describe('Whether email is configured: the login page then offers "Forgot password?"'),
    publicUrl: z
      .string()
      .optional()
      .describe(
        "PUBLIC_URL's origin when it is set: signing in works only there. Absent: any address the server is reached at",
      ),
  })
  .meta({ id: 'AuthConfig' });
export type AuthConfigResponse = z.infer<typeof AuthConfigResponse>;

/**
 * Why the identity-provider sign-in sent the browser back to /login
 * (`/login?error=…`): the provider could not be reached, the sign-in failed, or an admin disabled the account.
 */
export const OidcLoginError = z.enum(['oidc_unavailable', 'oidc_failed', 'account_disabled']);
export type OidcLoginError = z.infer<typeof OidcLoginError>;

/** GET /api/auth/oidc/start?returnTo=/dashboard/files */
export const OidcStartQuery = z.object({ returnTo: z.string().max(2000).optional() });
export type OidcStartQuery = z.infer<typeof OidcStartQuery>;

/** The auth endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const authEndpoints = {
  config: endpoint({ method: 'GET', path: '/api/auth/config', response: AuthConfigResponse }),
  login: endpoint({ method: 'POST', path: '/api/auth/login', body: LoginRequest, response: MeResponse }),
  logout: endpoint({ method: 'POST', path: '/api/auth/logout', response: LogoutResponse }),
  me: endpoint({ method: 'GET', path: '/api/me', response: MeResponse }),
  firstLogin: endpoint({ method: 'POST', path: '/api/me/first-login', response: MeResponse }),
  /** A browser navigation to the identity provider (answered with a redirect). */
  oidcStart: endpoint({ method: 'GET', path: '/api/auth/oidc/start', query: OidcStartQuery }),
  /** Where the identity provider sends the browser back (redirects onwards). */
  oidcCallback: endpoint({ method: 'GET', path: '/api/auth/oidc/callback' }),
} as const;

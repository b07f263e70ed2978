/**
 * The development identity provider's face: a real OpenID Provider mounted at `/oidc` with the demo users, without
 * `OIDC_ISSUER` outside production (the auth module mounts it).
 *
 * `dev-idp.ts` mounts oidc-provider (loaded only then) at `DEV_IDP_PREFIX`; `demo-users.ts` holds the demo users and
 * their claims (`dave` in `atrium-admins`, which the embedded mode maps to admin); `pages.ts` renders its login pages
 * in Atrium's own markup so they satisfy the strict CSP. The relying party talks to it over HTTP exactly as it would to
 * an outside provider, so tests exercise the real sign-in path. It is on without `OIDC_ISSUER` unless in production;
 * `DEV_OIDC_PROVIDER` forces it on or off (`config/auth.ts`), and the server warns when it runs in production.
 */
export { registerDevIdentityProvider } from './dev-idp';

/**
 * The development identity provider's face: a real OpenID Provider mounted at `/oidc` with the demo users, without
 * `OIDC_ISSUER` outside production (the auth module mounts it).
 */
export { registerDevIdentityProvider } from './dev-idp';

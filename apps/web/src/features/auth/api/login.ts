import { ENDPOINTS, type LoginRequest } from '@atrium/contracts';
import { endpointPath } from '@atrium/contracts/endpoint';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';
import { meQueryOptions, writeBrowserFlags } from '../../../lib/me';

export const loginWithPassword = (body: LoginRequest) => call(ENDPOINTS.auth.login, { body });

/** Signs in with the built-in admin credentials and primes the session cache. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: loginWithPassword,
    onSuccess(me) {
      writeBrowserFlags(me);
      queryClient.setQueryData(meQueryOptions().queryKey, me);
    },
  });
}

/** Where "Continue with …" sends the browser: the server runs the OpenID Connect flow. */
export const oidcStartUrl = (returnTo: string) => endpointPath(ENDPOINTS.auth.oidcStart, {}, { returnTo });

/** Full-page navigation away from the SPA (an object so tests can observe it). */
export const browserNavigation = { assign: (url: string) => window.location.assign(url) };

/** The second step of a password sign-in (docs/PRODUCT.md#second-factors): a code from the app or a recovery code. */
export const finishWithCode = (code: string) => call(ENDPOINTS.factors.loginTotp, { body: { code } });
/** The policy requires a factor the person has none of: a secret for the pending sign-in. */
export const startSignInEnrolment = () => call(ENDPOINTS.factors.loginEnrolStart);
/** Confirms that secret; answers the signed-in user and the recovery codes (shown once). */
export const finishSignInEnrolment = (code: string) => call(ENDPOINTS.factors.loginEnrolVerify, { body: { code } });

/** Sign in with a passkey alone (docs/PRODUCT.md#second-factors): the browser asks for any passkey of this site. */
export async function signInWithPasskey() {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const options = await call(ENDPOINTS.passkeys.signInOptions);
  const response = await startAuthentication({ optionsJSON: options as never });
  return call(ENDPOINTS.passkeys.signIn, { body: { response: response as never } });
}

/** The policy requires a factor: a passkey registered for the pending sign-in finishes it (no recovery codes). */
export async function finishSignInWithNewPasskey() {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const options = await call(ENDPOINTS.passkeys.enrolOptions);
  const response = await startRegistration({ optionsJSON: options as never });
  return call(ENDPOINTS.passkeys.enrol, { body: { response: response as never } });
}

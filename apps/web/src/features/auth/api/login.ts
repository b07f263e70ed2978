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

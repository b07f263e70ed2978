import { ENDPOINTS, type MfaPolicy } from '@atrium/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';

/** Profile → Sign-in security (docs/PRODUCT.md#second-factors). */
export const secondFactorsQuery = () =>
  queryOptions({ queryKey: ['second-factors'] as const, queryFn: () => call(ENDPOINTS.factors.status) });
export const useSecondFactors = () => useQuery(secondFactorsQuery());

export const startTotp = () => call(ENDPOINTS.factors.totpStart);
export const confirmTotp = (code: string) => call(ENDPOINTS.factors.totpVerify, { body: { code } });
/** Turning the app off: the account password, or (no password here) a code (docs/SECURITY.md, "Second factors and passkeys"). */
export const removeTotp = (body: { password: string } | { code: string }) =>
  call(ENDPOINTS.factors.totpRemove, { body });
export const regenerateRecoveryCodes = (code: string) => call(ENDPOINTS.factors.recoveryRegenerate, { body: { code } });

/** Refreshes the status after a change. */
export function useRefreshFactors() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: secondFactorsQuery().queryKey });
}

/** Admin settings: who must have a second factor. */
export const mfaPolicyQuery = () =>
  queryOptions({ queryKey: ['admin', 'mfa-policy'] as const, queryFn: () => call(ENDPOINTS.factors.policyGet) });
export const useMfaPolicy = () => useQuery(mfaPolicyQuery());
export function useSetMfaPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (policy: MfaPolicy) => call(ENDPOINTS.factors.policySet, { body: { policy } }),
    onSuccess: (answer) => queryClient.setQueryData(mfaPolicyQuery().queryKey, answer),
  });
}

/** The person's passkeys. */
export const passkeysQuery = () =>
  queryOptions({ queryKey: ['passkeys'] as const, queryFn: () => call(ENDPOINTS.passkeys.list) });
export const usePasskeys = () => useQuery(passkeysQuery());

/** Registers a passkey on this device (the browser asks), named `name`. */
export async function addPasskey(name?: string) {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const options = await call(ENDPOINTS.passkeys.registerOptions);
  const response = await startRegistration({ optionsJSON: options as never });
  return call(ENDPOINTS.passkeys.register, { body: { response: response as never, ...(name ? { name } : {}) } });
}
export const renamePasskey = (id: string, name: string) =>
  call(ENDPOINTS.passkeys.rename, { params: { id }, body: { name } });
export const removePasskey = (id: string) => call(ENDPOINTS.passkeys.remove, { params: { id } });
export function useRefreshPasskeys() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: passkeysQuery().queryKey });
}

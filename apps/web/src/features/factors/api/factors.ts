import { ENDPOINTS, type MfaPolicy } from '@atrium/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';

/** Profile → Sign-in security (docs/PRODUCT.md#second-factors). */
export const secondFactorsQuery = () =>
  queryOptions({ queryKey: ['second-factors'] as const, queryFn: () => call(ENDPOINTS.factors.status) });
export const useSecondFactors = () => useQuery(secondFactorsQuery());

export const startTotp = () => call(ENDPOINTS.factors.totpStart);
export const confirmTotp = (code: string) => call(ENDPOINTS.factors.totpVerify, { body: { code } });
export const removeTotp = (code: string) => call(ENDPOINTS.factors.totpRemove, { body: { code } });
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

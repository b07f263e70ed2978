import { ENDPOINTS } from '@atrium/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';

/** The app-password query keys (only this feature reads them). */
const appPasswordKeys = { mine: () => ['app-passwords', 'mine'] as const };

const appPasswordsQueryOptions = () =>
  queryOptions({ queryKey: appPasswordKeys.mine(), queryFn: () => call(ENDPOINTS.appPasswords.list) });

export const useAppPasswords = () => useQuery(appPasswordsQueryOptions());

export function useCreateAppPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => call(ENDPOINTS.appPasswords.create, { body: { name } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: appPasswordKeys.mine() }),
  });
}

export function useRevokeAppPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(ENDPOINTS.appPasswords.revoke, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: appPasswordKeys.mine() }),
  });
}

/** The client a Nextcloud Login Flow v2 request is for (docs/PRODUCT.md#nextcloud-clients). */
export const useLoginFlow = (token: string) =>
  useQuery({
    queryKey: ['login-flow', token],
    queryFn: () => call(ENDPOINTS.loginFlow.show, { params: { token } }),
    retry: false,
  });

export function useGrantLoginFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => call(ENDPOINTS.loginFlow.grant, { params: { token } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: appPasswordKeys.mine() }),
  });
}

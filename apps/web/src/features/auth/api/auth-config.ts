import { ENDPOINTS } from '@atrium/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';

export const DEFAULT_PROVIDER_NAME = 'Auth0';

/** GET /api/auth/config: the identity provider's display name and whether it is available. */
export const authConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['auth-config'],
    queryFn: () => call(ENDPOINTS.auth.config),
    staleTime: Infinity,
  });

export const useAuthConfig = () => useQuery(authConfigQueryOptions());

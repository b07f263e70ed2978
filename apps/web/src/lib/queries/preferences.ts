import { DEFAULT_PREFERENCES, ENDPOINTS, type UserPreferences, type UserPreferencesPatch } from '@atrium/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../api-client';
import { queryKeys } from '../query-keys';

/**
 * GET/PUT /api/me/preferences: the signed-in user's own settings (the file browsers' list or grid view), kept on the
 * server so they follow the user to every browser. A change shows at once and is undone if the server refuses it.
 */
export const preferencesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.preferences(),
    queryFn: () => call(ENDPOINTS.preferences.get),
    staleTime: 5 * 60_000,
  });

/** The preferences, or the defaults while they load (or when they cannot be read). */
export function usePreferences(): UserPreferences {
  const query = useQuery(preferencesQueryOptions());
  return query.data ?? DEFAULT_PREFERENCES;
}

export function useUpdatePreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: UserPreferencesPatch) => call(ENDPOINTS.preferences.update, { body: patch }),
    onMutate: async (patch) => {
      await client.cancelQueries({ queryKey: queryKeys.preferences() });
      const before = client.getQueryData<UserPreferences>(queryKeys.preferences());
      client.setQueryData<UserPreferences>(queryKeys.preferences(), { ...DEFAULT_PREFERENCES, ...before, ...patch });
      return { before };
    },
    onError: (_error, _patch, context) => client.setQueryData(queryKeys.preferences(), context?.before),
    onSuccess: (saved) => client.setQueryData(queryKeys.preferences(), saved),
  });
}

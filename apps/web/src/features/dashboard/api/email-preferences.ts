import { ENDPOINTS, type EmailPreferences, type EmailPreferencesPatch } from '@atrium/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';

/** GET/PUT /api/me/email-preferences (docs/PRODUCT.md#email): the person's own email choices. */
const emailPreferencesKey = ['me', 'email-preferences'] as const;

export const emailPreferencesQueryOptions = () =>
  queryOptions({ queryKey: emailPreferencesKey, queryFn: () => call(ENDPOINTS.mail.get) });

export const useEmailPreferences = () => useQuery(emailPreferencesQueryOptions());

/** A change shows at once and is undone when the server refuses it. */
export function useUpdateEmailPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: EmailPreferencesPatch) => call(ENDPOINTS.mail.update, { body: patch }),
    onMutate: async (patch) => {
      await client.cancelQueries({ queryKey: emailPreferencesKey });
      const before = client.getQueryData<EmailPreferences>(emailPreferencesKey);
      if (before) client.setQueryData<EmailPreferences>(emailPreferencesKey, { ...before, ...patch });
      return { before };
    },
    onError: (_error, _patch, context) => client.setQueryData(emailPreferencesKey, context?.before),
    onSuccess: (saved) => client.setQueryData(emailPreferencesKey, saved),
  });
}

import { useMe } from '../../../lib/me';

/** The signed-in user's owner key (the spec's {userId}); the dashboard renders only once it is known. */
export function useOwnerKey(): string {
  return useMe().data?.ownerKey ?? '';
}

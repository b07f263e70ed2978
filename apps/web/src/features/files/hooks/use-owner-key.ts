import { useMe } from '../../../lib/me';

/** The signed-in user's owner key (the API's {userId}, docs/PRODUCT.md#owner-key); the dashboard renders only once it is known. */
export function useOwnerKey(): string {
  return useMe().data?.ownerKey ?? '';
}

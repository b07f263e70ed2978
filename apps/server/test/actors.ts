import { userActor, type Actor } from '../src/auth/actor';
import { AppError } from '../src/errors';

/** A signed-in person for policy tests: owner key `ownerKey`, id `id-<ownerKey>`. */
export const person = (ownerKey: string, role: 'user' | 'admin' = 'user'): Actor =>
  userActor({
    id: `id-${ownerKey}`,
    owner_key: ownerKey,
    role,
    name: null,
    nickname: null,
    email: null,
    picture: null,
  });

export const linkBearer: Actor = { kind: 'link', linkId: 'l1' };
export const apiKeyCaller: Actor = { kind: 'apiKey', keyId: 'k1' };

/** Every action of `roles.ts`, in order of strength. */
export const ACTIONS = ['read', 'write', 'delete', 'share', 'manage'] as const;

/** What a policy check came to: `allowed`, or the refusal as `<status> <code>` (and its message when asked). */
export async function outcomeOf(promise: Promise<unknown>, { withMessage = false } = {}): Promise<string> {
  try {
    await promise;
    return 'allowed';
  } catch (error) {
    if (!(error instanceof AppError)) return 'thrown';
    return withMessage ? `${error.statusCode} ${error.code} ${error.message}` : `${error.statusCode} ${error.code}`;
  }
}

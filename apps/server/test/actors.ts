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

/** The people of the policy tests: Alice and Bob, ordinary users, and an admin. */
export const alice = person('alice');
export const bob = person('bob');
export const admin = person('admin', 'admin');

/** A bearer of a public link, and a caller with an AI API key: no session. */
export const link: Actor = { kind: 'link', linkId: 'l1' };
export const apiKey: Actor = { kind: 'apiKey', keyId: 'k1' };

/** Every action of `roles.ts`, in order of strength. */
export const actions = ['read', 'write', 'delete', 'share', 'manage'] as const;

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

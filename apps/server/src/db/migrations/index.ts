import type { Migration } from 'kysely';
import { m0001Init } from './0001-init';
import { m0002Identity } from './0002-identity';
import { m0003Files } from './0003-files';
import { m0005Ai } from './0005-ai';
import { m0004Notifications } from './0004-notifications';
import { m0006Contact } from './0006-contact';
import { m0007RateLimits } from './0007-rate-limits';
import { m0012PushFailures } from './0012-push-failures';

/**
 * Every migration, in order. Names sort lexicographically; never rename or
 * edit one that has shipped: add a new one.
 */
export const migrations: Record<string, Migration> = {
  '0001-init': m0001Init,
  '0002-identity': m0002Identity,
  '0003-files': m0003Files,
  '0005-ai': m0005Ai,
  '0004-notifications': m0004Notifications,
  '0006-contact': m0006Contact,
  '0007-rate-limits': m0007RateLimits,
  '0012-push-failures': m0012PushFailures,
};

import type { Migration } from 'kysely';
import { m0001Init } from './0001-init';
import { m0006Contact } from './0006-contact';

/**
 * Every migration, in order. Names sort lexicographically; never rename or
 * edit one that has shipped: add a new one.
 */
export const migrations: Record<string, Migration> = {
  '0001-init': m0001Init,
  '0006-contact': m0006Contact,
};

import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { iso, type Clock } from '../lib/time';

/** Decides which instance runs a job that must run on one instance at a time. */
export interface LeaseStore {
  /** Takes (or renews) the lease on `name` for `ms`; false when another instance holds an unexpired one. */
  acquire(name: string, ms: number): Promise<boolean>;
}

/**
 * Leases in the `job_leases` table (migration 0011), so they work on SQLite and PostgreSQL alike: one upsert that
 * only writes when the lease is free, expired or already ours; the affected row count says who got it.
 */
export const createDbLeases = ({ db, clock, holder = randomUUID() }: { db: Db; clock: Clock; holder?: string }) => ({
  holder,
  async acquire(name: string, ms: number): Promise<boolean> {
    const now = clock.now();
    const result = await db
      .insertInto('job_leases')
      .values({ name, holder, expires_at: iso(new Date(now.getTime() + ms)) })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet((eb) => ({ holder: eb.ref('excluded.holder'), expires_at: eb.ref('excluded.expires_at') }))
          .where((eb) => eb.or([eb('job_leases.expires_at', '<=', iso(now)), eb('job_leases.holder', '=', holder)])),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  },
});

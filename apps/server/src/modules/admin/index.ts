/**
 * The admin module's face: the admin console's users screen (`admin-users.*`: users with used bytes and live
 * sessions, disable and enable — which ends every session and stream —, role, quota, Transfer files of a disabled
 * user; the built-in admin and oneself protected), the settings (`settings.*`: e.g. whether members must accept
 * being added) and the system status (`system.*`: version, uptime, the readiness probes, database and storage
 * sizes, streams, push subscriptions, the job queue, a configuration summary with secrets only `set`/`unset`)
 * (docs/PRODUCT.md#admin-console-users-and-audit-log, docs/PRODUCT.md#admin-console-system-status).
 *
 * Two steps, because other modules need its stores before its screens can be built: `createAdminStores` (the
 * settings and each person's quota, read by spaces and files), then `createAdminModule` (the routes).
 *
 * `admin-users.repository.ts` (users with used bytes and live session count as subqueries; `quotaOf`),
 * `admin-users.service.ts` (rules; disabling calls `destroyAllForUser`, whose end listeners end the streams on every
 * instance), `admin.routes.ts`; migration `0014-admin` (`disabled_at`, `quota_bytes`, `last_sign_in_at`).
 * `system.routes.ts` runs the readiness probes through `runProbes` (health module) and reads sizes through
 * `system.repository.ts`; the version and commit come from the package and `lib/build-info.ts`. Admin routes are
 * declared with `adminOnly(capability)` (`auth/policies/admin.ts`).
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import type { EventEmitter } from '../../events';
import type { Clock } from '../../lib/time';
import { createAdminUsersRepository } from './admin-users.repository';
import { createSystemRepository } from './system.repository';
import { createAdminUsersService, type AdminUsersServiceDeps } from './admin-users.service';
import { registerAdminRoutes } from './admin.routes';
import { createSettingsRepository } from './settings.repository';
import { registerSettingsRoutes } from './settings.routes';
import { createSettingsService } from './settings.service';
import { registerSystemRoutes, type SystemDeps } from './system.routes';

export function createAdminStores({ db, clock }: { db: Db; clock: Clock }) {
  return {
    settings: createSettingsService({ repo: createSettingsRepository(db), clock }),
    /** Each person's own quota (null: the default). */
    quotas: createAdminUsersRepository(db, clock),
  };
}

export type AdminStores = ReturnType<typeof createAdminStores>;

export interface AdminModuleDeps extends Omit<AdminUsersServiceDeps, 'repo'> {
  stores: AdminStores;
  events: EventEmitter;
  system: SystemDeps;
}

export function createAdminModule(app: FastifyInstance, { stores, system, ...deps }: AdminModuleDeps) {
  registerAdminRoutes(app, { users: createAdminUsersService({ ...deps, repo: stores.quotas }) });
  registerSystemRoutes(app, system);
  registerSettingsRoutes(app, { settings: stores.settings, events: deps.events });
  const systemRepo = createSystemRepository(system.database.db);
  return {
    /** Every stored file's count and bytes (the trash included): `/metrics`. */
    async storageTotals(): Promise<{ files: number; bytes: number }> {
      const totals = await systemRepo.fileTotals();
      return { files: Number(totals?.files ?? 0), bytes: Number(totals?.bytes ?? 0) };
    },
  };
}

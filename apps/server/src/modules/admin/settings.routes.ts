import type { FastifyInstance } from 'fastify';
import { ENDPOINTS } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import type { EventEmitter } from '../../events';
import { changeBy } from '../../lib/http/request-context';
import type { SettingsService } from './settings.service';
import { routesOf } from '../../plugins/route';

/** /api/admin/settings: instance settings (admins only); each change is a `settings.changed` audit entry. */
export function registerSettingsRoutes(
  app: FastifyInstance,
  { settings, events }: { settings: SettingsService; events: EventEmitter },
) {
  const tags = ['admin'];
  const { settings: get, updateSettings: update } = ENDPOINTS.admin;

  const serve = routesOf(app, { config: adminOnly('settings'), tags });

  serve(get, {
    summary: 'Instance settings (admins only)',
    handler: async () => settings.get(),
  });

  serve(update, {
    summary: 'Change instance settings (admins only); settings left out keep their value',
    errors: [400],
    handler: async (request) => {
      const admin = await request.requireUser();
      const { before, after } = await settings.update(admin.id, request.body);
      for (const key of Object.keys(request.body) as (keyof typeof after)[]) {
        if (before[key] === after[key]) continue;
        await events.emit(
          'settings.changed',
          changeBy(request, admin, {
            target: 'instance',
            details: { setting: key, from: before[key], to: after[key] },
          }),
        );
      }
      return after;
    },
  });
}

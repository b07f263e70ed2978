import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ENDPOINTS, ErrorResponse } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import type { EventEmitter } from '../../events';
import { requestContext } from '../../lib/http/request-context';
import type { SettingsService } from './settings.service';

/** /api/admin/settings: instance settings (admins only); each change is a `settings.changed` audit entry. */
export function registerSettingsRoutes(
  app: FastifyInstance,
  { settings, events }: { settings: SettingsService; events: EventEmitter },
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];
  const { settings: get, updateSettings: update } = ENDPOINTS.admin;

  typed.route({
    method: get.method,
    url: get.path,
    config: adminOnly('settings'),
    schema: {
      tags,
      summary: 'Instance settings (admins only)',
      response: { 200: get.response, 401: ErrorResponse, 403: ErrorResponse },
    },
    handler: async () => settings.get(),
  });

  typed.route({
    method: update.method,
    url: update.path,
    config: adminOnly('settings'),
    schema: {
      tags,
      summary: 'Change instance settings (admins only); settings left out keep their value',
      body: update.body,
      response: { 200: update.response, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
    },
    handler: async (request) => {
      const admin = await request.requireUser();
      const { before, after } = await settings.update(admin.id, request.body);
      for (const key of Object.keys(request.body) as (keyof typeof after)[]) {
        if (before[key] === after[key]) continue;
        await events.emit('settings.changed', {
          actor: admin.ownerKey,
          target: 'instance',
          details: { setting: key, from: before[key], to: after[key] },
          ...requestContext(request),
        });
      }
      return after;
    },
  });
}

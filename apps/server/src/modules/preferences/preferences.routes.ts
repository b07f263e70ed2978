import type { FastifyInstance } from 'fastify';
import { ENDPOINTS } from '@atrium/contracts';
import type { PreferencesService } from './preferences.service';
import { routesOf } from '../../plugins/route';

/** `GET/PUT /api/me/preferences`: the signed-in user's own settings (the file view), in every browser. */
export function registerPreferencesRoutes(app: FastifyInstance, { preferences }: { preferences: PreferencesService }) {
  const { get, update } = ENDPOINTS.preferences;
  const serve = routesOf(app, { config: { access: 'user' }, tags: ['auth'] });

  serve(get, {
    summary: "The signed-in user's preferences (the file browsers' list or grid view)",
    handler: async (request) => preferences.get(await request.requireUser()),
  });
  serve(update, {
    summary: "Change the signed-in user's preferences (only those named)",
    errors: [400],
    handler: async (request) => preferences.update(await request.requireUser(), request.body),
  });
}

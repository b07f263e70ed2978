import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ENDPOINTS, ErrorResponse } from '@atrium/contracts';
import type { PreferencesService } from './preferences.service';

/** `GET/PUT /api/me/preferences`: the signed-in user's own settings (the file view), in every browser. */
export function registerPreferencesRoutes(app: FastifyInstance, { preferences }: { preferences: PreferencesService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { get, update } = ENDPOINTS.preferences;
  typed.route({
    method: get.method,
    url: get.path,
    config: { access: 'user' },
    schema: {
      tags: ['auth'],
      summary: "The signed-in user's preferences (the file browsers' list or grid view)",
      response: { 200: get.response, 401: ErrorResponse },
    },
    handler: async (request) => preferences.get(await request.requireUser()),
  });
  typed.route({
    method: update.method,
    url: update.path,
    config: { access: 'user' },
    schema: {
      tags: ['auth'],
      summary: "Change the signed-in user's preferences (only those named)",
      body: update.body,
      response: { 200: update.response, 400: ErrorResponse, 401: ErrorResponse },
    },
    handler: async (request) => preferences.update(await request.requireUser(), request.body),
  });
}

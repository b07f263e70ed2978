/**
 * The preferences module's face: a user's own settings (`GET/PUT /api/me/preferences`: the file browsers' list or
 * grid view, docs/PRODUCT.md#grid-view), one JSON row per user in `user_preferences`, only ever the caller's own.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import type { Clock } from '../../lib/time';
import { registerPreferencesRoutes } from './preferences.routes';
import { createPreferencesService } from './preferences.service';

export function createPreferencesModule(app: FastifyInstance, deps: { db: Db; clock: Clock }) {
  registerPreferencesRoutes(app, { preferences: createPreferencesService(deps) });
}

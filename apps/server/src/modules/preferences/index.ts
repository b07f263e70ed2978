/**
 * The preferences module's face: a user's own settings (`GET/PUT /api/me/preferences`: the file browsers' list or
 * grid view, docs/PRODUCT.md#grid-view), one JSON row per user in `user_preferences`, only ever the caller's own.
 *
 * `preferences.repository.ts` (migration `0021-user-preferences`: user id → JSON, deleted with the user),
 * `preferences.service.ts` (a patch's fields set on the stored object; shapes `UserPreferences`/`UserPreferencesPatch`
 * in contracts), `preferences.routes.ts` (signed-in users; a PUT by anyone changes only their own row). A user without
 * a row reads `DEFAULT_PREFERENCES` (the list view). The web keeps them in one query, updated optimistically and undone
 * on refusal.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db';
import type { Clock } from '../../lib/time';
import { registerPreferencesRoutes } from './preferences.routes';
import { createPreferencesService } from './preferences.service';

export function createPreferencesModule(app: FastifyInstance, deps: { db: Db; clock: Clock }) {
  registerPreferencesRoutes(app, { preferences: createPreferencesService(deps) });
}

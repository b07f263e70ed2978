import { DEFAULT_PREFERENCES, UserPreferences, type UserPreferencesPatch } from '@atrium/contracts';
import type { UserActor } from '../../auth/actor';
import type { Db } from '../../db';
import { iso, type Clock } from '../../lib/time';

/**
 * A user's own settings (issue 16: the file browsers' list or grid view). Only ever the caller's own row: there is
 * no other resource, so no policy beyond being signed in. A stored value the schema no longer knows is replaced by
 * its default when read.
 */
export function createPreferencesService({ db, clock }: { db: Db; clock: Clock }) {
  const read = async (userId: string): Promise<UserPreferences> => {
    const row = await db
      .selectFrom('user_preferences')
      .select('preferences')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return { ...DEFAULT_PREFERENCES };
    let stored: unknown;
    try {
      stored = JSON.parse(row.preferences);
    } catch {
      stored = {};
    }
    const known = UserPreferences.partial().safeParse(stored);
    return { ...DEFAULT_PREFERENCES, ...(known.success ? known.data : {}) };
  };

  return {
    get: (actor: UserActor) => read(actor.id),
    /** Changes the named settings (the others keep their value); answers them all. */
    async update(actor: UserActor, patch: UserPreferencesPatch): Promise<UserPreferences> {
      const next: UserPreferences = { ...(await read(actor.id)) };
      if (patch.fileView !== undefined) next.fileView = patch.fileView;
      const values = { preferences: JSON.stringify(next), updated_at: iso(clock.now()) };
      await db
        .insertInto('user_preferences')
        .values({ user_id: actor.id, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
      return next;
    },
  };
}

export type PreferencesService = ReturnType<typeof createPreferencesService>;

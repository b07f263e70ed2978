import { DEFAULT_PREFERENCES, UserPreferences, type UserPreferencesPatch } from '@atrium/contracts';
import type { UserActor } from '../../auth/actor';
import type { Db } from '../../db';
import { iso, type Clock } from '../../lib/time';
import { createPreferencesRepository } from './preferences.repository';

/**
 * A user's own settings (docs/PRODUCT.md#grid-view: the file browsers' list or grid view). Only ever the caller's own row: there is
 * no other resource, so no policy beyond being signed in. A stored value the schema no longer knows is replaced by
 * its default when read.
 */
export function createPreferencesService({ db, clock }: { db: Db; clock: Clock }) {
  const preferences = createPreferencesRepository(db);
  const read = async (userId: string): Promise<UserPreferences> => {
    const text = await preferences.find(userId);
    if (text === undefined) return { ...DEFAULT_PREFERENCES };
    let stored: unknown;
    try {
      stored = JSON.parse(text);
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
      await preferences.save(actor.id, JSON.stringify(next), iso(clock.now()));
      return next;
    },
  };
}

export type PreferencesService = ReturnType<typeof createPreferencesService>;

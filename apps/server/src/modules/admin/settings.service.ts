import type { InstanceSettings, InstanceSettingsPatch } from '@atrium/contracts';
import { iso, type Clock } from '../../lib/time';
import type { SettingsRepository } from './settings.repository';

/** Every setting's value when an admin never changed it. */
const DEFAULTS: InstanceSettings = { membersMustAccept: false };

/** Instance settings an admin changes on the system screen (docs/PRODUCT.md#workspace-members). */
export function createSettingsService({ repo, clock }: { repo: SettingsRepository; clock: Clock }) {
  const service = {
    async get(): Promise<InstanceSettings> {
      const stored = await repo.all();
      return {
        membersMustAccept: stored.has('membersMustAccept')
          ? stored.get('membersMustAccept') === 'true'
          : DEFAULTS.membersMustAccept,
      };
    },

    /** Whether adding someone to a workspace invites them (they accept or decline) rather than adding them. */
    membersMustAccept: async (): Promise<boolean> => (await service.get()).membersMustAccept,

    /** Applies `patch`; answers the settings before and after. */
    async update(
      actorId: string | null,
      patch: InstanceSettingsPatch,
    ): Promise<{ before: InstanceSettings; after: InstanceSettings }> {
      const before = await service.get();
      const now = iso(clock.now());
      if (patch.membersMustAccept !== undefined) {
        await repo.set('membersMustAccept', String(patch.membersMustAccept), actorId, now);
      }
      return { before, after: await service.get() };
    },
  };
  return service;
}

export type SettingsService = ReturnType<typeof createSettingsService>;

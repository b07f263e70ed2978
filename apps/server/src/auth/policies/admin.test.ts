import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TEXTS } from '@atrium/contracts';
import { userActor, type Actor } from '../actor';
import { ADMIN_CAPABILITIES, adminOnly, canSeeSystemDetails, isActiveAdminAccount, requireAdmin } from './admin';

const person = (role: 'user' | 'admin') =>
  userActor({ id: role, owner_key: role, role, name: null, nickname: null, email: null, picture: null });

describe('admin policy', () => {
  it('lets admins through and refuses everyone else with the capability’s message', () => {
    expect(() => requireAdmin(person('admin'), 'apiKeys')).not.toThrow();
    const others: Actor[] = [person('user'), { kind: 'link', linkId: 'l' }, { kind: 'apiKey', keyId: 'k' }];
    for (const actor of others) {
      expect(() => requireAdmin(actor, 'apiKeys')).toThrow(
        expect.objectContaining({ statusCode: 403, message: 'Only admins can manage API keys.' }),
      );
    }
    expect(() => requireAdmin(person('user'), 'notifications')).toThrow(NOTIFICATION_TEXTS.adminOnly);
  });

  it('declares admin routes with the same message', () => {
    expect(adminOnly('contactMessages')).toEqual({
      access: 'admin',
      forbiddenMessage: ADMIN_CAPABILITIES.contactMessages,
    });
  });

  it('shows readiness details to admins only', () => {
    expect([
      canSeeSystemDetails(person('admin')),
      canSeeSystemDetails(person('user')),
      canSeeSystemDetails(null),
    ]).toEqual([true, false, false]);
  });

  it('lets a stored account act as an admin later only while it is an admin and not disabled', () => {
    expect([
      isActiveAdminAccount({ role: 'admin', disabledAt: null }),
      isActiveAdminAccount({ role: 'admin', disabledAt: '2026-11-01T00:00:00.000Z' }),
      isActiveAdminAccount({ role: 'user', disabledAt: null }),
      isActiveAdminAccount({ role: '', disabledAt: null }),
    ]).toEqual([true, false, false, false]);
  });
});

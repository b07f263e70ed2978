import { describe, expect, it } from 'vitest';
import { admin, alice, apiKey, bob, link, outcomeOf } from '../../../test/actors';
import type { Actor } from '../actor';
import { canManageTrash, requireTrashItem, type TrashSubject } from './trash';

const outcome = (actor: Actor, item: TrashSubject | undefined) =>
  outcomeOf(
    requireTrashItem(actor, () => Promise.resolve(item)),
    { withMessage: true },
  );
const HIDDEN = '404 NOT_FOUND This item is not in the trash.';

describe('trash policy', () => {
  it('gives a personal trash to its owner only: not to an admin, a link bearer or an API key', async () => {
    const personal: TrashSubject = { workspaceId: null, ownerKey: 'alice' };
    expect(canManageTrash(alice, personal)).toBe(true);
    for (const other of [bob, admin, link, apiKey]) {
      expect(canManageTrash(other, personal)).toBe(false);
      expect(await outcome(other, personal)).toBe(HIDDEN);
    }
    expect(await outcome(alice, personal)).toBe('allowed');
  });

  it("gives a workspace's trash to its editors and owners; viewers and non-members see nothing", async () => {
    const as = (memberRole: 'owner' | 'editor' | 'viewer' | null): TrashSubject => ({ workspaceId: 'w1', memberRole });
    expect(await outcome(alice, as('owner'))).toBe('allowed');
    expect(await outcome(alice, as('editor'))).toBe('allowed');
    expect(await outcome(alice, as('viewer'))).toBe(HIDDEN);
    expect(await outcome(alice, as(null))).toBe(HIDDEN);
    expect(await outcome(admin, as(null))).toBe(HIDDEN);
    expect(await outcome(link, as('owner'))).toBe(HIDDEN);
  });

  it('answers a missing item like a hidden one', async () => {
    expect(await outcome(alice, undefined)).toBe(HIDDEN);
  });
});

import { describe, expect, it } from 'vitest';
import { actions, admin, alice, apiKey, bob, link, outcomeOf } from '../../../test/actors';
import { canFile, fileRole, reachesInOwnSpaces, requireActsFor, requireFile, requireMoveOut } from './file';

const file = { id: 'f1', ownerKey: 'alice' };

const codeOf = outcomeOf;

describe('file policy', () => {
  it('gives the owner every action, and nobody else any: admins included (they manage people, not content)', () => {
    expect(actions.map((a) => canFile(alice, a, file))).toEqual([true, true, true, true, true]);
    expect(actions.map((a) => canFile(admin, a, { ...file, ownerKey: 'admin' }))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    for (const other of [bob, admin, link, apiKey]) {
      expect(actions.map((a) => canFile(other, a, file))).toEqual([false, false, false, false, false]);
      expect(fileRole(other, file)).toBeNull();
    }
  });

  it('loads and checks in one call: missing and hidden files are the same 404', async () => {
    expect(await codeOf(requireFile(alice, 'delete', async () => file))).toBe('allowed');
    expect(await codeOf(requireFile(bob, 'read', async () => file))).toBe('404 FILE_NOT_FOUND');
    expect(await codeOf(requireFile(bob, 'read', async () => undefined))).toBe('404 FILE_NOT_FOUND');
    expect(await codeOf(requireFile(link, 'read', async () => file))).toBe('404 FILE_NOT_FOUND');
    expect(await codeOf(requireFile(admin, 'read', async () => file))).toBe('404 FILE_NOT_FOUND');
  });

  it("refuses a {userId} path naming another user's space with 403", () => {
    expect(() => requireActsFor(alice, 'alice', 'write')).not.toThrow();
    expect(() => requireActsFor(admin, 'admin', 'write')).not.toThrow();
    for (const other of [bob, admin]) {
      expect(() => requireActsFor(other, 'alice', 'read')).toThrow(
        expect.objectContaining({ statusCode: 403, message: 'You can only access your own files.' }),
      );
    }
    expect(() => requireActsFor(apiKey, 'alice', 'read')).toThrow(expect.objectContaining({ statusCode: 403 }));
  });

  it('tells a file reached in one’s own spaces from one reached only through a share', () => {
    const inWorkspace = { ownerKey: 'alice', workspaceId: 'w1' };
    expect(reachesInOwnSpaces(alice, file)).toBe(true);
    expect(reachesInOwnSpaces(admin, file)).toBe(false);
    expect(reachesInOwnSpaces(bob, { ...file, shareRole: 'editor' })).toBe(false);
    expect(reachesInOwnSpaces(bob, { ...inWorkspace, memberRole: 'viewer' })).toBe(true);
    expect(reachesInOwnSpaces(bob, { ...inWorkspace, memberRole: null, shareRole: 'viewer' })).toBe(false);
    // An admin has no role in a workspace they are not a member of.
    expect(reachesInOwnSpaces(admin, inWorkspace)).toBe(false);
    expect(reachesInOwnSpaces(link, file)).toBe(false);
  });

  it("lets only the source space's owner move a file out of it; editors and admins are refused", () => {
    const inWorkspace = { ownerKey: 'alice', workspaceId: 'w1' };
    const refused = expect.objectContaining({ statusCode: 403, code: 'FORBIDDEN' });
    expect(() => requireMoveOut(alice, file)).not.toThrow();
    expect(() => requireMoveOut(bob, { ...inWorkspace, memberRole: 'owner' })).not.toThrow();
    expect(() => requireMoveOut(bob, { ...file, shareRole: 'editor' })).toThrow(refused);
    expect(() => requireMoveOut(bob, { ...inWorkspace, memberRole: 'editor' })).toThrow(refused);
    expect(() => requireMoveOut(bob, { ...inWorkspace, memberRole: 'viewer', shareRole: 'editor' })).toThrow(refused);
    expect(() => requireMoveOut(admin, file)).toThrow(refused);
  });
});

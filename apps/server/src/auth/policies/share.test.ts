import { describe, expect, it } from 'vitest';
import { actions, admin, alice, bob, link, outcomeOf } from '../../../test/actors';
import { canFile, requireFile } from './file';
import { canFolder, requireFolder, type FolderSubject } from './folder';

/**
 * Who may share (the `share` action of roles.ts) a file or a folder, and what a share grants: the sharing module asks
 * exactly these policies, so these cases are the rules of sharing.
 */

const codeOf = (promise: Promise<unknown>) => outcomeOf(promise, { withMessage: true });

describe('sharing in the file and folder policies', () => {
  it('lets a viewer share read only, an editor share change and share further, never manage', () => {
    const viaViewer = { ownerKey: 'alice', shareRole: 'viewer' as const };
    const viaEditor = { ownerKey: 'alice', shareRole: 'editor' as const };
    expect(actions.map((a) => canFile(bob, a, viaViewer))).toEqual([true, false, false, false, false]);
    expect(actions.map((a) => canFile(bob, a, viaEditor))).toEqual([true, true, true, true, false]);
    const folder: FolderSubject = { workspaceId: null, ownerKey: 'alice', shareRole: 'viewer' };
    expect(actions.map((a) => canFolder(bob, a, folder))).toEqual([true, false, false, false, false]);
    expect(actions.map((a) => canFolder(bob, a, { ...folder, shareRole: 'editor' }))).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
  });

  it('takes the stronger of a workspace role and a share; a link bearer gets nothing from a share', () => {
    const inWorkspace = { ownerKey: 'carol', workspaceId: 'w1', memberRole: 'viewer' as const, shareRole: null };
    expect(canFile(bob, 'share', inWorkspace)).toBe(false);
    expect(canFile(bob, 'share', { ...inWorkspace, shareRole: 'editor' })).toBe(true);
    expect(canFile(bob, 'share', { ...inWorkspace, memberRole: 'editor' })).toBe(true);
    expect(canFile(link, 'read', { ownerKey: 'alice', shareRole: 'editor' })).toBe(false);
    // Admins have no way into a workspace or a personal folder they were not given.
    const workspaceFolder: FolderSubject = { workspaceId: 'w1', ownerKey: null, memberRole: null };
    expect(canFolder(admin, 'read', workspaceFolder)).toBe(false);
    expect(canFolder(admin, 'share', { ...workspaceFolder, shareRole: 'viewer' })).toBe(false);
  });

  it('answers 403 to a recipient who may read but not share, 404 to everyone else', async () => {
    const file = { ownerKey: 'alice', shareRole: 'viewer' as const };
    expect(await codeOf(requireFile(bob, 'share', async () => file))).toBe(
      '403 FORBIDDEN You can only view this file.',
    );
    expect(await codeOf(requireFile(bob, 'share', async () => ({ ownerKey: 'alice' })))).toBe(
      '404 FILE_NOT_FOUND File not found',
    );
    const folder: FolderSubject = { workspaceId: null, ownerKey: 'alice', shareRole: 'viewer' };
    expect(await codeOf(requireFolder(bob, 'f1', 'share', async () => folder))).toBe(
      '403 FORBIDDEN You can only view this folder.',
    );
    expect(await codeOf(requireFolder(bob, 'f1', 'share', async () => ({ ...folder, shareRole: null })))).toMatch(
      /^404 FOLDER_NOT_FOUND/,
    );
    expect(await codeOf(requireFolder(alice, 'f1', 'share', async () => ({ ...folder, shareRole: null })))).toBe(
      'allowed',
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { Actor } from '../actor';
import { actions, admin, alice, apiKey, bob, link, outcomeOf } from '../../../test/actors';
import { canFolder, folderRole, requireFolder, type FolderSubject } from './folder';
import { canWorkspace, requireWorkspace, requireWorkspaceAudience, type WorkspaceSubject } from './workspace';
import type { ResourceRole } from './roles';

const codeOf = (promise: Promise<unknown>) => outcomeOf(promise, { withMessage: true });

const workspaceAs = (memberRole: ResourceRole | null): WorkspaceSubject & { id: string } => ({ id: 'w1', memberRole });
const workspaceFolder = (memberRole: ResourceRole | null): FolderSubject => ({
  workspaceId: 'w1',
  ownerKey: null,
  memberRole,
});

describe('workspace policy', () => {
  it('gives members their role’s actions and nobody else any, admins included', () => {
    const table = (role: ResourceRole | null, actor: Actor = alice) =>
      actions.map((a) => canWorkspace(actor, a, workspaceAs(role)));
    expect(table('owner')).toEqual([true, true, true, true, true]);
    expect(table('editor')).toEqual([true, true, true, true, false]);
    expect(table('viewer')).toEqual([true, false, false, false, false]);
    expect(table(null)).toEqual([false, false, false, false, false]);
    expect(table(null, admin)).toEqual([false, false, false, false, false]);
    // A link bearer or an API key never acts as a member, whatever the lookup said.
    expect(table('owner', link)).toEqual([false, false, false, false, false]);
    expect(table('owner', apiKey)).toEqual([false, false, false, false, false]);
  });

  it('answers 404 to non-members and for missing workspaces, 403 with a clear message to members', async () => {
    const load = (role: ResourceRole | null) => async (id: string) => (id === 'w1' ? workspaceAs(role) : undefined);
    expect(await codeOf(requireWorkspace(alice, 'w1', 'manage', load('owner')))).toBe('allowed');
    expect(await codeOf(requireWorkspace(alice, 'w1', 'read', load(null)))).toBe(
      '404 WORKSPACE_NOT_FOUND Workspace not found.',
    );
    expect(await codeOf(requireWorkspace(alice, 'missing', 'read', load('owner')))).toBe(
      '404 WORKSPACE_NOT_FOUND Workspace not found.',
    );
    expect(await codeOf(requireWorkspace(admin, 'w1', 'read', load(null)))).toMatch(/^404 /);
    expect(await codeOf(requireWorkspace(alice, 'w1', 'write', load('viewer')))).toBe(
      '403 FORBIDDEN You can only view this workspace. Ask one of its owners for editor access.',
    );
    expect(await codeOf(requireWorkspace(alice, 'w1', 'manage', load('editor')))).toBe(
      '403 FORBIDDEN Only the owners of this workspace can do that.',
    );
  });
});

describe('folder policy', () => {
  it('gives a personal folder to its owner only and a workspace folder to members by role', () => {
    const personal: FolderSubject = { workspaceId: null, ownerKey: 'alice' };
    expect(actions.map((a) => canFolder(alice, a, personal))).toEqual([true, true, true, true, true]);
    for (const other of [bob, admin, link, apiKey]) {
      expect(folderRole(other, personal)).toBeNull();
    }
    expect(folderRole(alice, workspaceFolder('viewer'))).toBe('viewer');
    expect(canFolder(alice, 'write', workspaceFolder('viewer'))).toBe(false);
    expect(canFolder(alice, 'write', workspaceFolder('editor'))).toBe(true);
    expect(canFolder(alice, 'delete', workspaceFolder('editor'))).toBe(true);
    expect(folderRole(admin, workspaceFolder(null))).toBeNull();
  });

  it('hides folders from those without a role and refuses viewers’ changes with 403', async () => {
    const load = (folder: FolderSubject) => async (id: string) => (id === 'f1' ? folder : undefined);
    expect(await codeOf(requireFolder(alice, 'f1', 'write', load(workspaceFolder('editor'))))).toBe('allowed');
    expect(await codeOf(requireFolder(alice, 'f1', 'write', load(workspaceFolder('viewer'))))).toBe(
      '403 FORBIDDEN You can only view this folder.',
    );
    expect(await codeOf(requireFolder(alice, 'f1', 'read', load(workspaceFolder(null))))).toBe(
      '404 FOLDER_NOT_FOUND Folder not found.',
    );
    expect(await codeOf(requireFolder(bob, 'f1', 'read', load({ workspaceId: null, ownerKey: 'alice' })))).toBe(
      '404 FOLDER_NOT_FOUND Folder not found.',
    );
    expect(await codeOf(requireFolder(alice, 'nope', 'read', load(workspaceFolder('owner'))))).toMatch(/^404 /);
  });
});

describe('publishing to a workspace audience', () => {
  const publish = (actor: Actor, memberRole: ResourceRole | null | undefined) =>
    codeOf(
      requireWorkspaceAudience(actor, 'w1', async () =>
        memberRole === undefined ? undefined : workspaceAs(memberRole),
      ),
    );

  it('lets owners and admins publish; editors and viewers get 403, non-members and missing workspaces 404', async () => {
    expect(await publish(alice, 'owner')).toBe('allowed');
    expect(await publish(admin, null)).toBe('allowed');
    expect(await publish(admin, 'viewer')).toBe('allowed');
    expect(await publish(alice, 'editor')).toBe('403 FORBIDDEN Only the owners of this workspace can do that.');
    expect(await publish(alice, 'viewer')).toBe('403 FORBIDDEN Only the owners of this workspace can do that.');
    expect(await publish(alice, null)).toMatch(/^404 WORKSPACE_NOT_FOUND/);
    expect(await publish(admin, undefined)).toMatch(/^404 WORKSPACE_NOT_FOUND/);
    expect(await publish(link, 'owner')).toMatch(/^404 WORKSPACE_NOT_FOUND/);
  });
});

import { AppError } from '../../errors';
import type { UserActor } from '../actor';
import { allows, type ResourceAction, type ResourceRole } from './roles';

/** A space as People sees it: its key in the people tables and the caller's role in it. */
export interface PeopleSpace {
  /** A workspace id, or `personal:<owner key>`. */
  key: string;
  workspaceId: string | null;
  role: ResourceRole;
}

export const personalSpaceKey = (ownerKey: string) => `personal:${ownerKey}`;
export const spaceKeyOf = (file: { workspaceId: string | null; ownerKey: string }) =>
  file.workspaceId ?? personalSpaceKey(file.ownerKey);

/**
 * Who may do what with the people of a space (docs/PRODUCT.md#people): the same as with the space itself. `personal` is
 * the caller's own personal space (they own it; nobody else reaches it: admins included, as for its files); a workspace
 * answers through the workspace policy (`requireWorkspace`: 404 for non-members and admins outside it, 403 for a
 * member whose role does not allow the action). Reading people needs `read`; naming, merging and splitting `write`
 * (editors and owners); turning People on or off `manage` (owners).
 */
export async function requirePeopleSpace(
  actor: UserActor,
  spaceId: string,
  action: ResourceAction,
  authorizeWorkspace: (actor: UserActor, id: string, action: ResourceAction) => Promise<{ memberRole: ResourceRole }>,
): Promise<PeopleSpace> {
  if (spaceId === 'personal') return { key: personalSpaceKey(actor.ownerKey), workspaceId: null, role: 'owner' };
  const workspace = await authorizeWorkspace(actor, spaceId, action);
  if (!allows(workspace.memberRole, action)) throw new AppError('FORBIDDEN');
  return { key: spaceId, workspaceId: spaceId, role: workspace.memberRole };
}

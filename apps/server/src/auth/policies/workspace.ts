import { AppError } from '../../errors';
import { isAdmin, type Actor } from '../actor';
import { requireById } from './authorize';
import { allows, type ResourceAction, type ResourceRole } from './roles';

/** What the workspace policy reads of a workspace: the acting user's membership role in it (null: not a member). */
export interface WorkspaceSubject {
  memberRole: ResourceRole | null;
}

/** The 403 messages of a member whose role does not allow the action. */
export const WORKSPACE_MESSAGES = {
  viewOnly: 'You can only view this workspace. Ask one of its owners for editor access.',
  ownersOnly: 'Only the owners of this workspace can do that.',
} as const;

/**
 * The actor's role on a workspace: a member's role, and nothing for anyone else. Admins get no role in workspaces
 * they are not members of (a workspace's content is its members'), link bearers and API keys never.
 */
export function workspaceRole(actor: Actor, workspace: WorkspaceSubject): ResourceRole | null {
  return actor.kind === 'user' ? workspace.memberRole : null;
}

/** Whether the actor may do `action` to the workspace (`manage`: rename, delete, members). */
export const canWorkspace = (actor: Actor, action: ResourceAction, workspace: WorkspaceSubject): boolean =>
  allows(workspaceRole(actor, workspace), action);

/** The refusal for a member who may read but not do `action`: owners-only actions name the owners. */
const refusal = (action: ResourceAction) =>
  new AppError('FORBIDDEN', action === 'manage' ? WORKSPACE_MESSAGES.ownersOnly : WORKSPACE_MESSAGES.viewOnly);

/**
 * Loads workspace `id` as seen by the actor (`load` answers it with the actor's membership role) and checks
 * `action`. A missing workspace and one the actor is not a member of both answer 404 `WORKSPACE_NOT_FOUND`;
 * a member whose role does not allow the action gets 403.
 */
export const requireWorkspace = requireById(workspaceRole, refusal, () => new AppError('WORKSPACE_NOT_FOUND'));

/**
 * Who may publish a notification to a workspace's members: its owners, and admins (who publish to any audience, so
 * here, and only here, they count as an owner of a workspace they are not in). Editors and viewers get 403, anyone
 * else the 404 of a missing workspace.
 */
export function requireWorkspaceAudience<T extends WorkspaceSubject>(
  actor: Actor,
  id: string,
  load: (id: string) => Promise<T | undefined>,
): Promise<T> {
  return requireWorkspace(actor, id, 'manage', async (workspaceId) => {
    const found = await load(workspaceId);
    return found && isAdmin(actor) ? { ...found, memberRole: 'owner' as const } : found;
  });
}

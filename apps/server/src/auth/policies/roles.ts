/**
 * The roles an actor can hold on a resource (a space, a folder, a file) and what each allows. Every policy maps
 * "who is this actor to this resource" to one of these roles and then asks `allows(role, action)`, so the
 * meaning of a role is written here once.
 * - owner: everything, including managing members and deleting the space;
 * - editor: read, add, change and delete content, and share it inside the workspace;
 * - viewer: read and download.
 */
export type ResourceRole = 'owner' | 'editor' | 'viewer';

/** What an actor may try to do to a resource. */
export type ResourceAction = 'read' | 'write' | 'delete' | 'share' | 'manage';

const ALLOWED: Record<ResourceRole, ReadonlySet<ResourceAction>> = {
  owner: new Set(['read', 'write', 'delete', 'share', 'manage']),
  editor: new Set(['read', 'write', 'delete', 'share']),
  viewer: new Set(['read']),
};

const RANK: Record<ResourceRole, number> = { viewer: 1, editor: 2, owner: 3 };

/** Whether a role (or no role at all) allows an action. */
export const allows = (role: ResourceRole | null | undefined, action: ResourceAction): boolean =>
  role != null && ALLOWED[role].has(action);

/** The stronger of two roles (a folder share and a workspace membership add up to the larger one). */
export const strongerRole = (a: ResourceRole | null, b: ResourceRole | null): ResourceRole | null => {
  if (a === null) return b;
  if (b === null) return a;
  return RANK[a] >= RANK[b] ? a : b;
};

import { ENDPOINTS } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { requestContext } from '../../lib/http/request-context';
import type { FoldersService } from './folders.service';
import type { WorkspacesService } from './workspaces.service';
import { routesOf } from '../../plugins/route';

const errors = [400, 403, 404] as const;
const USER = { access: 'user' } as const;
const E = ENDPOINTS.spaces;

/**
 * Spaces (docs/PRODUCT.md#workspaces-and-folders): the space switcher, workspaces and their members, the directory of
 * people, folders. Every route is for signed-in users; what each may do to a workspace or folder is the policies'
 * (auth/policies).
 */
export function registerSpacesRoutes(
  app: FastifyInstance,
  deps: { workspaces: WorkspacesService; folders: FoldersService },
) {
  const { workspaces, folders } = deps;

  const serve = routesOf(app, { config: USER, tags: ['workspaces'] });

  serve(E.spaces, {
    tags: ['spaces'],
    summary: "The caller's spaces: the personal space, then each workspace (the sidebar's switcher)",
    handler: async (request) => workspaces.spaces(await request.requireUser()),
  });

  serve(E.directory, {
    tags: ['spaces'],
    summary: 'People who have signed in, searched by name, nickname or email (at most 20)',
    errors: [400],
    handler: async (request) => workspaces.directory(request.query.q),
  });

  serve(E.createWorkspace, {
    summary: 'Create a workspace; the caller becomes its owner',
    errors,
    handler: async (request, reply) =>
      reply
        .status(E.createWorkspace.status)
        .send(await workspaces.create(await request.requireUser(), request.body.name)),
  });

  serve(E.workspaces, {
    summary: "The workspaces the caller is a member of, with the caller's role",
    handler: async (request) => workspaces.list(await request.requireUser()),
  });

  serve(E.workspace, {
    summary: 'A workspace the caller is a member of, with its storage',
    errors,
    handler: async (request) => workspaces.get(await request.requireUser(), request.params.id),
  });

  serve(E.renameWorkspace, {
    summary: 'Rename a workspace (owners)',
    errors,
    handler: async (request) => workspaces.rename(await request.requireUser(), request.params.id, request.body.name),
  });

  serve(E.deleteWorkspace, {
    summary: 'Delete a workspace with its folders and files (owners)',
    errors,
    handler: async (request) => workspaces.remove(await request.requireUser(), request.params.id),
  });

  serve(E.members, {
    summary: "A workspace's members (members see the list)",
    errors,
    handler: async (request) => workspaces.members(await request.requireUser(), request.params.id),
  });

  serve(E.setMember, {
    summary: "Add a member or change a member's role (owners); userId is the person's owner key",
    errors: [409, ...errors],
    handler: async (request) => {
      const { id, userId } = request.params;
      const actor = await request.requireUser();
      return (await workspaces.setMember(actor, id, userId, request.body.role, requestContext(request))).member;
    },
  });

  serve(E.removeMember, {
    summary: 'Remove a member (owners), or leave (your own owner key); the last owner cannot',
    errors: [409, ...errors],
    handler: async (request) => {
      const { id, userId } = request.params;
      return workspaces.removeMember(await request.requireUser(), id, userId, requestContext(request));
    },
  });

  serve(E.acceptInvitation, {
    summary: 'Accept an invitation to a workspace (the invited person; 404 without an invitation)',
    errors,
    handler: async (request) =>
      workspaces.accept(await request.requireUser(), request.params.id, requestContext(request)),
  });

  serve(E.declineInvitation, {
    summary: 'Decline an invitation to a workspace (the invited person; 404 without an invitation)',
    errors,
    handler: async (request) =>
      workspaces.decline(await request.requireUser(), request.params.id, requestContext(request)),
  });

  serve(E.createFolder, {
    tags: ['folders'],
    summary: 'Create a folder (in parentId, or at the root of workspaceId or of the personal space)',
    errors: [409, ...errors],
    handler: async (request, reply) =>
      reply.status(E.createFolder.status).send(await folders.create(await request.requireUser(), request.body)),
  });

  serve(E.folder, {
    tags: ['folders'],
    summary: "A folder's content, folders first, paged and sorted, with breadcrumbs",
    errors,
    handler: async (request) => {
      const actor = await request.requireUser();
      const listing = await folders.list(actor, request.params.id, request.query);
      // Opening a workspace's folder counts as opening the workspace (docs/PRODUCT.md#workspace-messages).
      if (listing.workspaceId) await workspaces.markOpened(actor, listing.workspaceId);
      return listing;
    },
  });

  serve(E.updateFolder, {
    tags: ['folders'],
    summary: 'Rename a folder and/or move it within its space',
    errors: [409, ...errors],
    handler: async (request) =>
      folders.update(await request.requireUser(), request.params.id, request.body, requestContext(request)),
  });

  serve(E.deleteFolder, {
    tags: ['folders'],
    summary: 'Move a folder with its subfolders and files to the trash of its space',
    errors,
    handler: async (request) => folders.remove(await request.requireUser(), request.params.id, requestContext(request)),
  });
}

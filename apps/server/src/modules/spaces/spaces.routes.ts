import { ENDPOINTS, ErrorResponse } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { EventEmitter } from '../../events';
import { requestContext } from '../../lib/http/request-context';
import type { FoldersService } from './folders.service';
import type { WorkspacesService } from './workspaces.service';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse } as const;
const USER = { access: 'user' } as const;
const E = ENDPOINTS.spaces;

/**
 * Spaces (issue 15): the space switcher, workspaces and their members, the directory of people, folders.
 * Every route is for signed-in users; what each may do to a workspace or folder is the policies' (auth/policies).
 */
export function registerSpacesRoutes(
  app: FastifyInstance,
  deps: { workspaces: WorkspacesService; folders: FoldersService; events: EventEmitter },
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { workspaces, folders, events } = deps;

  typed.route({
    method: E.spaces.method,
    url: E.spaces.path,
    config: USER,
    schema: {
      tags: ['spaces'],
      summary: "The caller's spaces: the personal space, then each workspace (the sidebar's switcher)",
      response: { 200: E.spaces.response, 401: ErrorResponse },
    },
    handler: async (request) => workspaces.spaces(await request.requireUser()),
  });

  typed.route({
    method: E.directory.method,
    url: E.directory.path,
    config: USER,
    schema: {
      tags: ['spaces'],
      summary: 'People who have signed in, searched by name, nickname or email (at most 20)',
      querystring: E.directory.query,
      response: { 200: E.directory.response, 400: ErrorResponse, 401: ErrorResponse },
    },
    handler: async (request) => workspaces.directory(request.query.q),
  });

  typed.route({
    method: E.createWorkspace.method,
    url: E.createWorkspace.path,
    config: USER,
    schema: {
      tags: ['workspaces'],
      summary: 'Create a workspace; the caller becomes its owner',
      body: E.createWorkspace.body,
      response: { [E.createWorkspace.status]: E.createWorkspace.response, ...errors },
    },
    handler: async (request, reply) =>
      reply
        .status(E.createWorkspace.status)
        .send(await workspaces.create(await request.requireUser(), request.body.name)),
  });

  typed.route({
    method: E.workspaces.method,
    url: E.workspaces.path,
    config: USER,
    schema: {
      tags: ['workspaces'],
      summary: "The workspaces the caller is a member of, with the caller's role",
      response: { 200: E.workspaces.response, 401: ErrorResponse },
    },
    handler: async (request) => workspaces.list(await request.requireUser()),
  });

  typed.route({
    method: E.workspace.method,
    url: E.workspace.path,
    config: USER,
    schema: {
      tags: ['workspaces'],
      summary: 'A workspace the caller is a member of, with its storage',
      params: E.workspace.params,
      response: { 200: E.workspace.response, ...errors },
    },
    handler: async (request) => workspaces.get(await request.requireUser(), request.params.id),
  });

  typed.route({
    method: E.renameWorkspace.method,
    url: E.renameWorkspace.path,
    config: USER,
    schema: {
      tags: ['workspaces'],
      summary: 'Rename a workspace (owners)',
      params: E.renameWorkspace.params,
      body: E.renameWorkspace.body,
      response: { 200: E.renameWorkspace.response, ...errors },
    },
    handler: async (request) => workspaces.rename(await request.requireUser(), request.params.id, request.body.name),
  });

  typed.route({
    method: E.deleteWorkspace.method,
    url: E.deleteWorkspace.path,
    config: USER,
    schema: {
      tags: ['workspaces'],
      summary: 'Delete a workspace with its folders and files (owners)',
      params: E.deleteWorkspace.params,
      response: { 200: E.deleteWorkspace.response, ...errors },
    },
    handler: async (request) => workspaces.remove(await request.requireUser(), request.params.id),
  });

  typed.route({
    method: E.members.method,
    url: E.members.path,
    config: USER,
    schema: {
      tags: ['workspaces'],
      summary: "A workspace's members (members see the list)",
      params: E.members.params,
      response: { 200: E.members.response, ...errors },
    },
    handler: async (request) => workspaces.members(await request.requireUser(), request.params.id),
  });

  typed.route({
    method: E.setMember.method,
    url: E.setMember.path,
    config: USER,
    schema: {
      tags: ['workspaces'],
      summary: "Add a member or change a member's role (owners); userId is the person's owner key",
      params: E.setMember.params,
      body: E.setMember.body,
      response: { 200: E.setMember.response, 409: ErrorResponse, ...errors },
    },
    handler: async (request) => {
      const actor = await request.requireUser();
      const { id, userId } = request.params;
      const { member, previousRole, invited } = await workspaces.setMember(actor, id, userId, request.body.role);
      if (invited) {
        await events.emit('workspace.member_invited', {
          actor: actor.ownerKey,
          target: `workspace:${id}`,
          details: { member: userId, role: member.role },
          ...requestContext(request),
        });
      } else if (previousRole !== member.role) {
        await events.emit(previousRole === undefined ? 'workspace.member_added' : 'workspace.member_changed', {
          actor: actor.ownerKey,
          target: `workspace:${id}`,
          details: { member: userId, role: member.role, ...(previousRole ? { previousRole } : {}) },
          ...requestContext(request),
        });
      }
      return member;
    },
  });

  typed.route({
    method: E.removeMember.method,
    url: E.removeMember.path,
    config: USER,
    schema: {
      tags: ['workspaces'],
      summary: 'Remove a member (owners), or leave (your own owner key); the last owner cannot',
      params: E.removeMember.params,
      response: { 200: E.removeMember.response, 409: ErrorResponse, ...errors },
    },
    handler: async (request) => {
      const actor = await request.requireUser();
      const { id, userId } = request.params;
      const { invitation, ...removed } = await workspaces.removeMember(actor, id, userId);
      await events.emit('workspace.member_removed', {
        actor: actor.ownerKey,
        target: `workspace:${id}`,
        details: { member: userId, left: userId === actor.ownerKey, ...(invitation ? { invitation } : {}) },
        ...requestContext(request),
      });
      return removed;
    },
  });

  typed.route({
    method: E.acceptInvitation.method,
    url: E.acceptInvitation.path,
    config: USER,
    schema: {
      tags: ['workspaces'],
      summary: 'Accept an invitation to a workspace (the invited person; 404 without an invitation)',
      params: E.acceptInvitation.params,
      response: { 200: E.acceptInvitation.response, ...errors },
    },
    handler: async (request) => {
      const actor = await request.requireUser();
      const { workspace, role } = await workspaces.accept(actor, request.params.id);
      await events.emit('workspace.member_accepted', {
        actor: actor.ownerKey,
        target: `workspace:${workspace.id}`,
        details: { member: actor.ownerKey, role },
        ...requestContext(request),
      });
      return workspace;
    },
  });

  typed.route({
    method: E.declineInvitation.method,
    url: E.declineInvitation.path,
    config: USER,
    schema: {
      tags: ['workspaces'],
      summary: 'Decline an invitation to a workspace (the invited person; 404 without an invitation)',
      params: E.declineInvitation.params,
      response: { 200: E.declineInvitation.response, ...errors },
    },
    handler: async (request) => {
      const actor = await request.requireUser();
      const declined = await workspaces.decline(actor, request.params.id);
      await events.emit('workspace.member_declined', {
        actor: actor.ownerKey,
        target: `workspace:${declined.id}`,
        details: { member: actor.ownerKey },
        ...requestContext(request),
      });
      return declined;
    },
  });

  typed.route({
    method: E.createFolder.method,
    url: E.createFolder.path,
    config: USER,
    schema: {
      tags: ['folders'],
      summary: 'Create a folder (in parentId, or at the root of workspaceId or of the personal space)',
      body: E.createFolder.body,
      response: { [E.createFolder.status]: E.createFolder.response, 409: ErrorResponse, ...errors },
    },
    handler: async (request, reply) =>
      reply.status(E.createFolder.status).send(await folders.create(await request.requireUser(), request.body)),
  });

  typed.route({
    method: E.folder.method,
    url: E.folder.path,
    config: USER,
    schema: {
      tags: ['folders'],
      summary: "A folder's content, folders first, paged and sorted, with breadcrumbs",
      params: E.folder.params,
      querystring: E.folder.query,
      response: { 200: E.folder.response, ...errors },
    },
    handler: async (request) => {
      const actor = await request.requireUser();
      const listing = await folders.list(actor, request.params.id, request.query);
      // Opening a workspace's folder counts as opening the workspace (docs/PRODUCT.md#workspace-messages).
      if (listing.workspaceId) await workspaces.markOpened(actor, listing.workspaceId);
      return listing;
    },
  });

  typed.route({
    method: E.updateFolder.method,
    url: E.updateFolder.path,
    config: USER,
    schema: {
      tags: ['folders'],
      summary: 'Rename a folder and/or move it within its space',
      params: E.updateFolder.params,
      body: E.updateFolder.body,
      response: { 200: E.updateFolder.response, 409: ErrorResponse, ...errors },
    },
    handler: async (request) =>
      folders.update(await request.requireUser(), request.params.id, request.body, requestContext(request)),
  });

  typed.route({
    method: E.deleteFolder.method,
    url: E.deleteFolder.path,
    config: USER,
    schema: {
      tags: ['folders'],
      summary: 'Move a folder with its subfolders and files to the trash of its space',
      params: E.deleteFolder.params,
      response: { 200: E.deleteFolder.response, ...errors },
    },
    handler: async (request) => {
      const actor = await request.requireUser();
      const removed = await folders.remove(actor, request.params.id);
      await events.emit('file.deleted', {
        actor: actor.ownerKey,
        target: `folder:${removed.id}`,
        details: { folders: removed.folders, files: removed.files },
        ...requestContext(request),
      });
      return removed;
    },
  });
}

import {
  CreateFolderRequest,
  CreateWorkspaceRequest,
  DeleteFolderResponse,
  DeleteWorkspaceResponse,
  DirectoryList,
  DirectoryQuery,
  ErrorResponse,
  Folder,
  FolderIdParams,
  FolderListing,
  FolderListQuery,
  Member,
  MemberList,
  MemberParams,
  RemoveMemberResponse,
  SetMemberRequest,
  SpaceList,
  UpdateFolderRequest,
  UpdateWorkspaceRequest,
  Workspace,
  WorkspaceDetails,
  WorkspaceIdParams,
  WorkspaceList,
} from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditContext, type AuditRecorder } from '../audit/audit-recorder';
import type { FoldersService } from './folders.service';
import type { WorkspacesService } from './workspaces.service';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse } as const;
const USER = { access: 'user' } as const;

/**
 * Spaces (issue 15): the space switcher, workspaces and their members, the directory of people, folders.
 * Every route is for signed-in users; what each may do to a workspace or folder is the policies' (auth/policies).
 */
export function registerSpacesRoutes(
  app: FastifyInstance,
  deps: { workspaces: WorkspacesService; folders: FoldersService; audit: AuditRecorder },
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { workspaces, folders, audit } = deps;

  typed.get(
    '/api/spaces',
    {
      config: USER,
      schema: {
        tags: ['spaces'],
        summary: "The caller's spaces: the personal space, then each workspace (the sidebar's switcher)",
        response: { 200: SpaceList, 401: ErrorResponse },
      },
    },
    async (request) => workspaces.spaces(await request.requireUser()),
  );

  typed.get(
    '/api/users',
    {
      config: USER,
      schema: {
        tags: ['spaces'],
        summary: 'People who have signed in, searched by name, nickname or email (at most 20)',
        querystring: DirectoryQuery,
        response: { 200: DirectoryList, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => workspaces.directory(request.query.q),
  );

  typed.post(
    '/api/workspaces',
    {
      config: USER,
      schema: {
        tags: ['workspaces'],
        summary: 'Create a workspace; the caller becomes its owner',
        body: CreateWorkspaceRequest,
        response: { 201: Workspace, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await workspaces.create(await request.requireUser(), request.body.name)),
  );

  typed.get(
    '/api/workspaces',
    {
      config: USER,
      schema: {
        tags: ['workspaces'],
        summary: "The workspaces the caller is a member of, with the caller's role",
        response: { 200: WorkspaceList, 401: ErrorResponse },
      },
    },
    async (request) => workspaces.list(await request.requireUser()),
  );

  typed.get(
    '/api/workspaces/:id',
    {
      config: USER,
      schema: {
        tags: ['workspaces'],
        summary: 'A workspace the caller is a member of, with its storage',
        params: WorkspaceIdParams,
        response: { 200: WorkspaceDetails, ...errors },
      },
    },
    async (request) => workspaces.get(await request.requireUser(), request.params.id),
  );

  typed.patch(
    '/api/workspaces/:id',
    {
      config: USER,
      schema: {
        tags: ['workspaces'],
        summary: 'Rename a workspace (owners)',
        params: WorkspaceIdParams,
        body: UpdateWorkspaceRequest,
        response: { 200: WorkspaceDetails, ...errors },
      },
    },
    async (request) => workspaces.rename(await request.requireUser(), request.params.id, request.body.name),
  );

  typed.delete(
    '/api/workspaces/:id',
    {
      config: USER,
      schema: {
        tags: ['workspaces'],
        summary: 'Delete a workspace with its folders and files (owners)',
        params: WorkspaceIdParams,
        response: { 200: DeleteWorkspaceResponse, ...errors },
      },
    },
    async (request) => workspaces.remove(await request.requireUser(), request.params.id),
  );

  typed.get(
    '/api/workspaces/:id/members',
    {
      config: USER,
      schema: {
        tags: ['workspaces'],
        summary: "A workspace's members (members see the list)",
        params: WorkspaceIdParams,
        response: { 200: MemberList, ...errors },
      },
    },
    async (request) => workspaces.members(await request.requireUser(), request.params.id),
  );

  typed.put(
    '/api/workspaces/:id/members/:userId',
    {
      config: USER,
      schema: {
        tags: ['workspaces'],
        summary: "Add a member or change a member's role (owners); userId is the person's owner key",
        params: MemberParams,
        body: SetMemberRequest,
        response: { 200: Member, 409: ErrorResponse, ...errors },
      },
    },
    async (request) => {
      const actor = await request.requireUser();
      const { id, userId } = request.params;
      const { member, previousRole } = await workspaces.setMember(actor, id, userId, request.body.role);
      if (previousRole !== member.role) {
        await audit.record({
          action: previousRole === undefined ? 'workspace.member_added' : 'workspace.member_changed',
          actor: actor.ownerKey,
          target: `workspace:${id}`,
          details: { member: userId, role: member.role, ...(previousRole ? { previousRole } : {}) },
          ...auditContext(request),
        });
      }
      return member;
    },
  );

  typed.delete(
    '/api/workspaces/:id/members/:userId',
    {
      config: USER,
      schema: {
        tags: ['workspaces'],
        summary: 'Remove a member (owners), or leave (your own owner key); the last owner cannot',
        params: MemberParams,
        response: { 200: RemoveMemberResponse, 409: ErrorResponse, ...errors },
      },
    },
    async (request) => {
      const actor = await request.requireUser();
      const { id, userId } = request.params;
      const removed = await workspaces.removeMember(actor, id, userId);
      await audit.record({
        action: 'workspace.member_removed',
        actor: actor.ownerKey,
        target: `workspace:${id}`,
        details: { member: userId, left: userId === actor.ownerKey },
        ...auditContext(request),
      });
      return removed;
    },
  );

  typed.post(
    '/api/folders',
    {
      config: USER,
      schema: {
        tags: ['folders'],
        summary: 'Create a folder (in parentId, or at the root of workspaceId or of the personal space)',
        body: CreateFolderRequest,
        response: { 201: Folder, 409: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send(await folders.create(await request.requireUser(), request.body)),
  );

  typed.get(
    '/api/folders/:id',
    {
      config: USER,
      schema: {
        tags: ['folders'],
        summary: "A folder's content, folders first, paged and sorted, with breadcrumbs",
        params: FolderIdParams,
        querystring: FolderListQuery,
        response: { 200: FolderListing, ...errors },
      },
    },
    async (request) => folders.list(await request.requireUser(), request.params.id, request.query),
  );

  typed.patch(
    '/api/folders/:id',
    {
      config: USER,
      schema: {
        tags: ['folders'],
        summary: 'Rename a folder and/or move it within its space',
        params: FolderIdParams,
        body: UpdateFolderRequest,
        response: { 200: Folder, 409: ErrorResponse, ...errors },
      },
    },
    async (request) =>
      folders.update(await request.requireUser(), request.params.id, request.body, auditContext(request)),
  );

  typed.delete(
    '/api/folders/:id',
    {
      config: USER,
      schema: {
        tags: ['folders'],
        summary: 'Move a folder with its subfolders and files to the trash of its space',
        params: FolderIdParams,
        response: { 200: DeleteFolderResponse, ...errors },
      },
    },
    async (request) => {
      const actor = await request.requireUser();
      const removed = await folders.remove(actor, request.params.id);
      await audit.record({
        action: 'file.deleted',
        actor: actor.ownerKey,
        target: `folder:${removed.id}`,
        details: { folders: removed.folders, files: removed.files },
        ...auditContext(request),
      });
      return removed;
    },
  );
}

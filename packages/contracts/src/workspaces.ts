import { z } from 'zod';
import { FileKind } from './file-kinds';
import { FileRecord } from './files';
import { endpoint } from './endpoint';

/** A member's role in a workspace: owner (everything, members, delete), editor (content), viewer (read). */
export const MemberRole = z.enum(['owner', 'editor', 'viewer']).meta({ id: 'MemberRole' });
export type MemberRole = z.infer<typeof MemberRole>;

/** Longest workspace name, in characters. */
export const WORKSPACE_NAME_MAX = 100;

/** The personal space's name in the space switcher. */
export const PERSONAL_SPACE_NAME = 'Personal';

const WorkspaceName = z
  .string()
  .trim()
  .min(1, 'Give the workspace a name.')
  .max(WORKSPACE_NAME_MAX, `A workspace name can be at most ${WORKSPACE_NAME_MAX} characters.`)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'A workspace name cannot contain control characters.');

/** POST /api/workspaces */
export const CreateWorkspaceRequest = z.object({ name: WorkspaceName }).meta({ id: 'CreateWorkspaceRequest' });
export type CreateWorkspaceRequest = z.infer<typeof CreateWorkspaceRequest>;

/** PATCH /api/workspaces/{id} (owners) */
export const UpdateWorkspaceRequest = z.object({ name: WorkspaceName }).meta({ id: 'UpdateWorkspaceRequest' });
export type UpdateWorkspaceRequest = z.infer<typeof UpdateWorkspaceRequest>;

/** A workspace as one of its members sees it. */
export const Workspace = z
  .object({
    id: z.string(),
    name: z.string(),
    role: MemberRole.describe("The caller's role"),
    rootFolderId: z.string().describe('GET /api/folders/{rootFolderId} lists the workspace'),
    createdAt: z.string().describe('ISO-8601'),
    memberCount: z.number().int().positive(),
  })
  .meta({ id: 'Workspace' });
export type Workspace = z.infer<typeof Workspace>;

export const WorkspaceList = z.array(Workspace).meta({ id: 'WorkspaceList' });
export type WorkspaceList = z.infer<typeof WorkspaceList>;

/** GET /api/workspaces/{id}: the workspace with its storage. */
export const WorkspaceDetails = Workspace.extend({
  quotaBytes: z.number().int().nonnegative().describe('WORKSPACE_QUOTA_BYTES'),
  usedBytes: z
    .number()
    .int()
    .nonnegative()
    .describe("Bytes of the workspace's files, the trash and older versions included"),
}).meta({ id: 'WorkspaceDetails' });
export type WorkspaceDetails = z.infer<typeof WorkspaceDetails>;

export const DeleteWorkspaceResponse = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'DeleteWorkspaceResponse' });
export type DeleteWorkspaceResponse = z.infer<typeof DeleteWorkspaceResponse>;

export const WorkspaceIdParams = z.object({ id: z.string().min(1).max(200) });
export const MemberParams = z.object({
  id: z.string().min(1).max(200),
  userId: z.string().min(1).max(320).describe("The member's owner key"),
});

/** PUT /api/workspaces/{id}/members/{userId}: add a member or change their role (owners). */
export const SetMemberRequest = z.object({ role: MemberRole }).meta({ id: 'SetMemberRequest' });
export type SetMemberRequest = z.infer<typeof SetMemberRequest>;

/** Someone who has signed in, as the directory and member lists show them. */
export const DirectoryUser = z
  .object({
    ownerKey: z.string().describe('The {userId} of member paths'),
    name: z.string().nullable(),
    nickname: z.string().nullable(),
    email: z.string().nullable(),
    picture: z.string().nullable(),
  })
  .meta({ id: 'DirectoryUser' });
export type DirectoryUser = z.infer<typeof DirectoryUser>;

export const Member = DirectoryUser.extend({
  role: MemberRole,
  addedAt: z.string().describe('ISO-8601 (invited: when the invitation was sent)'),
  status: z
    .enum(['member', 'invited'])
    .optional()
    .describe('invited: has not accepted yet, and has no access until they do (absent: a member)'),
}).meta({ id: 'Member' });
export type Member = z.infer<typeof Member>;

export const MemberList = z.array(Member).meta({ id: 'MemberList' });
export type MemberList = z.infer<typeof MemberList>;

export const RemoveMemberResponse = z
  .object({ ownerKey: z.string(), removed: z.literal(true) })
  .meta({ id: 'RemoveMemberResponse' });
export type RemoveMemberResponse = z.infer<typeof RemoveMemberResponse>;

/** Most people one directory search answers. */
export const DIRECTORY_LIMIT = 20;

/** GET /api/users?q= */
export const DirectoryQuery = z.object({
  q: z.string().trim().max(100, 'Search with at most 100 characters.').default(''),
});
export const DirectoryList = z.array(DirectoryUser).meta({ id: 'DirectoryList' });
export type DirectoryList = z.infer<typeof DirectoryList>;

/** One entry of the space switcher (GET /api/spaces): the personal space first, then each workspace. */
export const Space = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('personal'),
      id: z.null(),
      name: z.literal(PERSONAL_SPACE_NAME),
      rootFolderId: z.string(),
    }),
    z.object({
      kind: z.literal('workspace'),
      id: z.string(),
      name: z.string(),
      role: MemberRole,
      rootFolderId: z.string(),
    }),
  ])
  .meta({ id: 'Space' });
export type Space = z.infer<typeof Space>;

export const SpaceList = z.array(Space).meta({ id: 'SpaceList' });
export type SpaceList = z.infer<typeof SpaceList>;

// ---- Folders ----

/** A folder on the way from its space's root (the root first), for breadcrumbs. */
export const FolderCrumb = z.object({ id: z.string(), name: z.string() }).meta({ id: 'FolderCrumb' });
export type FolderCrumb = z.infer<typeof FolderCrumb>;

/** A folder, with where it is. */
export const Folder = z
  .object({
    id: z.string(),
    name: z.string(),
    parentId: z.string().nullable().describe("Null for a space's root folder"),
    workspaceId: z.string().nullable().describe('Null in the personal space'),
    path: z.array(FolderCrumb).describe('Breadcrumbs from the root to this folder, both included'),
    createdAt: z.string().describe('ISO-8601'),
  })
  .meta({ id: 'Folder' });
export type Folder = z.infer<typeof Folder>;

/** A folder inside the listed one. */
export const FolderEntry = z
  .object({ id: z.string(), name: z.string(), createdAt: z.string(), updatedAt: z.string() })
  .meta({ id: 'FolderEntry' });
export type FolderEntry = z.infer<typeof FolderEntry>;

/** GET /api/folders/{id}: one page of its content, folders first. */
export const FolderListing = Folder.extend({
  folders: z.array(FolderEntry),
  files: z.array(FileRecord),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last'),
}).meta({ id: 'FolderListing' });
export type FolderListing = z.infer<typeof FolderListing>;

export const FolderSort = z.enum(['name', 'date', 'size', 'type']);
export type FolderSort = z.infer<typeof FolderSort>;

/** Most names one folder listing filters by (`names`). */
export const MAX_LISTED_NAMES = 200;

export const FolderListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: z.string().max(2000).optional(),
  sort: FolderSort.default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
  type: FileKind.optional().describe('Only files of this kind (the folders are listed all the same)'),
  names: z
    .string()
    .max(MAX_LISTED_NAMES * 300)
    .refine((value) => value.split('/').length <= MAX_LISTED_NAMES, `At most ${MAX_LISTED_NAMES} names at once.`)
    .optional()
    .describe(
      'Only the folders and files with one of these names (case-insensitive), separated by "/" (which no name ' +
        'contains): how an upload asks which of its names are taken',
    ),
});
export type FolderListQuery = z.infer<typeof FolderListQuery>;

export const FolderIdParams = z.object({ id: z.string().min(1).max(200) });

/** Longest text accepted as a folder name before the name rules (which allow 255 characters) are applied. */
const RAW_NAME_MAX = 1024;

/** POST /api/folders: `parentId` defaults to the root of the space (`workspaceId`, or the personal space). */
export const CreateFolderRequest = z
  .object({
    name: z.string().max(RAW_NAME_MAX, 'A folder name can be at most 255 characters.'),
    workspaceId: z.string().min(1).max(200).optional(),
    parentId: z.string().min(1).max(200).optional(),
    onConflict: z
      .enum(['rename', 'fail'])
      .optional()
      .describe(
        'A name the parent already has: `rename` (the default) makes it `name (1)`; `fail` answers 409 NAME_TAKEN.',
      ),
  })
  .meta({ id: 'CreateFolderRequest' });
export type CreateFolderRequest = z.infer<typeof CreateFolderRequest>;

/** PATCH /api/folders/{id}: rename and/or move within the same space. */
export const UpdateFolderRequest = z
  .object({
    name: z.string().max(RAW_NAME_MAX, 'A folder name can be at most 255 characters.').optional(),
    parentId: z.string().min(1).max(200).optional(),
  })
  .refine((value) => value.name !== undefined || value.parentId !== undefined, {
    message: 'Send a new name, a new parentId, or both.',
  })
  .meta({ id: 'UpdateFolderRequest' });
export type UpdateFolderRequest = z.infer<typeof UpdateFolderRequest>;

export const DeleteFolderResponse = z
  .object({
    id: z.string(),
    deleted: z.literal(true),
    folders: z.number().int().nonnegative().describe('Folders deleted, this one included'),
    files: z.number().int().nonnegative().describe('Files deleted with them'),
  })
  .meta({ id: 'DeleteFolderResponse' });
export type DeleteFolderResponse = z.infer<typeof DeleteFolderResponse>;

/** POST /api/workspaces/{id}/membership/decline. */
export const DeclineInvitationResponse = z
  .object({ id: z.string(), declined: z.literal(true) })
  .meta({ id: 'DeclineInvitationResponse' });
export type DeclineInvitationResponse = z.infer<typeof DeclineInvitationResponse>;

/** The spaces endpoints of the endpoint table (`ENDPOINTS`, endpoints.ts). */
export const spacesEndpoints = {
  spaces: endpoint({ method: 'GET', path: '/api/spaces', response: SpaceList }),
  directory: endpoint({ method: 'GET', path: '/api/users', query: DirectoryQuery, response: DirectoryList }),
  createWorkspace: endpoint({
    method: 'POST',
    path: '/api/workspaces',
    body: CreateWorkspaceRequest,
    response: Workspace,
    status: 201,
  }),
  workspaces: endpoint({ method: 'GET', path: '/api/workspaces', response: WorkspaceList }),
  workspace: endpoint({
    method: 'GET',
    path: '/api/workspaces/:id',
    params: WorkspaceIdParams,
    response: WorkspaceDetails,
  }),
  renameWorkspace: endpoint({
    method: 'PATCH',
    path: '/api/workspaces/:id',
    params: WorkspaceIdParams,
    body: UpdateWorkspaceRequest,
    response: WorkspaceDetails,
  }),
  deleteWorkspace: endpoint({
    method: 'DELETE',
    path: '/api/workspaces/:id',
    params: WorkspaceIdParams,
    response: DeleteWorkspaceResponse,
  }),
  members: endpoint({
    method: 'GET',
    path: '/api/workspaces/:id/members',
    params: WorkspaceIdParams,
    response: MemberList,
  }),
  setMember: endpoint({
    method: 'PUT',
    path: '/api/workspaces/:id/members/:userId',
    params: MemberParams,
    body: SetMemberRequest,
    response: Member,
  }),
  removeMember: endpoint({
    method: 'DELETE',
    path: '/api/workspaces/:id/members/:userId',
    params: MemberParams,
    response: RemoveMemberResponse,
  }),
  /** The invited person accepts: a member from now on (404 without an invitation). */
  acceptInvitation: endpoint({
    method: 'POST',
    path: '/api/workspaces/:id/membership/accept',
    params: WorkspaceIdParams,
    response: Workspace,
  }),
  /** The invited person declines: the invitation is gone (404 without one). */
  declineInvitation: endpoint({
    method: 'POST',
    path: '/api/workspaces/:id/membership/decline',
    params: WorkspaceIdParams,
    response: DeclineInvitationResponse,
  }),
  createFolder: endpoint({
    method: 'POST',
    path: '/api/folders',
    body: CreateFolderRequest,
    response: Folder,
    status: 201,
  }),
  folder: endpoint({
    method: 'GET',
    path: '/api/folders/:id',
    params: FolderIdParams,
    query: FolderListQuery,
    response: FolderListing,
  }),
  updateFolder: endpoint({
    method: 'PATCH',
    path: '/api/folders/:id',
    params: FolderIdParams,
    body: UpdateFolderRequest,
    response: Folder,
  }),
  deleteFolder: endpoint({
    method: 'DELETE',
    path: '/api/folders/:id',
    params: FolderIdParams,
    response: DeleteFolderResponse,
  }),
} as const;

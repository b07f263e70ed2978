import {
  ENDPOINTS,
  MAX_LISTED_NAMES,
  type FileKind,
  type FolderListing,
  type FolderSort,
  type MemberRole,
  type PublishRequest,
} from '@atrium/contracts';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';
import { folderChoicesQueryOptions, spacesQueryOptions } from '../../../lib/queries/spaces';
import { queryKeys } from '../../../lib/query-keys';
import { sendOk } from '../../../lib/http';

const E = ENDPOINTS.spaces;

/** This feature's own keys; the spaces, folders, files and directory keys are shared (lib/query-keys.ts). */
const workspaceKeys = {
  workspace: (id: string) => ['workspaces', id] as const,
  members: (id: string) => ['workspaces', id, 'members'] as const,
};

// ---- Spaces, workspaces, members, directory ----

export { spacesQueryOptions };
export const useSpaces = () => useQuery(spacesQueryOptions());

export const useWorkspace = (id: string) =>
  useQuery({
    queryKey: workspaceKeys.workspace(id),
    queryFn: () => call(E.workspace, { params: { id } }),
  });

export const useMembers = (id: string) =>
  useQuery({
    queryKey: workspaceKeys.members(id),
    queryFn: () => call(E.members, { params: { id } }),
  });

export const useDirectory = (q: string) =>
  useQuery({
    queryKey: queryKeys.directory(q),
    queryFn: () => call(E.directory, { query: { q } }),
    enabled: q.trim() !== '',
  });

export function useCreateWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => call(E.createWorkspace, { body: { name } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.spaces() }),
  });
}

/** Reloads everything a change to a workspace or its members may show in. */
function useWorkspaceInvalidation(id: string) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.spaces() }),
      client.invalidateQueries({ queryKey: workspaceKeys.workspace(id) }),
    ]);
}

export function useRenameWorkspace(id: string) {
  const invalidate = useWorkspaceInvalidation(id);
  return useMutation({
    mutationFn: (name: string) => call(E.renameWorkspace, { params: { id }, body: { name } }),
    onSuccess: invalidate,
  });
}

/** Sends the workspace's members a notification (its owners; the feed's workspace audience). */
export function useMessageMembers(id: string) {
  return useMutation({
    mutationFn: (message: string) =>
      call(ENDPOINTS.notifications.publish, {
        body: { message, timestamp: new Date().toISOString(), type: 'admin', workspaceId: id } satisfies PublishRequest,
      }),
  });
}

export function useDeleteWorkspace(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => call(E.deleteWorkspace, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.spaces() }),
  });
}

export function useSetMember(id: string) {
  const invalidate = useWorkspaceInvalidation(id);
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: MemberRole }) =>
      call(E.setMember, { params: { id, userId }, body: { role } }),
    onSuccess: invalidate,
  });
}

export function useRemoveMember(id: string) {
  const invalidate = useWorkspaceInvalidation(id);
  return useMutation({
    mutationFn: (userId: string) => call(E.removeMember, { params: { id, userId } }),
    onSuccess: invalidate,
  });
}

// ---- Folders and files ----

export const FOLDER_PAGE_SIZE = 50;

export const folderQueryOptions = (
  id: string,
  sort: FolderSort,
  order: 'asc' | 'desc',
  limit: number = FOLDER_PAGE_SIZE,
  type: FileKind | '' = '',
) =>
  infiniteQueryOptions({
    queryKey: queryKeys.folders.listing(id, sort, order, limit, type),
    queryFn: ({ pageParam }) =>
      call(E.folder, { params: { id }, query: { sort, order, limit, type, cursor: pageParam } }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

export const useFolder = (
  id: string,
  sort: FolderSort,
  order: 'asc' | 'desc',
  limit?: number,
  type: FileKind | '' = '',
) => useInfiniteQuery(folderQueryOptions(id, sort, order, limit, type));

/**
 * Which of `names` the folder already has as files (lower-cased), asked of the server (`names` filter, in batches):
 * for an upload into a folder whose listing is not all loaded, or shows one type only.
 */
export async function takenFileNames(folderId: string, names: string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let start = 0; start < names.length; start += MAX_LISTED_NAMES) {
    const batch = names.slice(start, start + MAX_LISTED_NAMES).join('/');
    let cursor: string | null = null;
    do {
      const page: FolderListing = await call(E.folder, {
        params: { id: folderId },
        query: { names: batch, limit: MAX_LISTED_NAMES, cursor },
      });
      for (const file of page.files) taken.add(file.fileName.toLowerCase());
      cursor = page.nextCursor;
    } while (cursor);
  }
  return taken;
}

/** One page of a folder's subfolders, for the move dialog's picker. */
export const useFolderChoices = (id: string | null) => useQuery(folderChoicesQueryOptions(id));

function useFoldersInvalidation() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.folders.all() });
}

export function useCreateFolder() {
  const invalidate = useFoldersInvalidation();
  return useMutation({
    mutationFn: (input: { name: string; parentId: string; onConflict?: 'fail' | 'rename' }) =>
      call(E.createFolder, { body: input }),
    onSuccess: invalidate,
  });
}

export function useUpdateFolder() {
  const invalidate = useFoldersInvalidation();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; name?: string; parentId?: string }) =>
      call(E.updateFolder, { params: { id }, body }),
    onSuccess: invalidate,
  });
}

export function useDeleteFolder() {
  const invalidate = useFoldersInvalidation();
  return useMutation({
    mutationFn: (id: string) => call(E.deleteFolder, { params: { id } }),
    onSuccess: invalidate,
  });
}

export function useUpdateFile() {
  const invalidate = useFoldersInvalidation();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; fileName?: string; folderId?: string }) =>
      call(ENDPOINTS.files.update, { params: { id }, body }),
    onSuccess: invalidate,
  });
}

/** One entry put back (Undo of a move or a rename): a file's or folder's name and/or place, as it was. */
export interface EntryChange {
  kind: 'file' | 'folder';
  id: string;
  name?: string;
  folderId?: string;
}

/**
 * Puts entries back through the same PATCH routes, outside any component (an Undo toast outlives the dialog that
 * made the change), then reloads the folder listings.
 */
export function useChangeBack() {
  const client = useQueryClient();
  return async (changes: readonly EntryChange[]) => {
    try {
      await Promise.all(
        changes.map(({ kind, id, name, folderId }) =>
          kind === 'file'
            ? call(ENDPOINTS.files.update, { params: { id }, body: { fileName: name, folderId } })
            : call(E.updateFolder, { params: { id }, body: { name, parentId: folderId } }),
        ),
      );
    } finally {
      await client.invalidateQueries({ queryKey: queryKeys.folders.all() });
    }
  };
}

export function useDeleteFile() {
  const invalidate = useFoldersInvalidation();
  return useMutation({
    mutationFn: (id: string) => call(ENDPOINTS.files.delete, { params: { id } }),
    onSuccess: invalidate,
  });
}

/** GET /api/files/{id}/versions */
export const useVersions = (id: string) =>
  useQuery({
    queryKey: queryKeys.files.versions(id),
    queryFn: () => call(ENDPOINTS.files.versions, { params: { id } }),
  });

/** POST /api/files/{id}/versions/{versionId}/restore; reloads the versions, the folder listings and file lists. */
export function useRestoreVersion(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (versionId: string) => call(ENDPOINTS.files.restoreVersion, { params: { id, versionId } }),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.files.all() }),
        client.invalidateQueries({ queryKey: queryKeys.folders.all() }),
      ]),
  });
}

/** Reloads the open folder's listings (after uploads). */
export const useRefreshFolders = useFoldersInvalidation;

/** The file name of a `Content-Disposition` answer (RFC 6266 `filename*` first), or `fallback`. */
function attachmentName(header: string | null, fallback: string): string {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header ?? '')?.[1];
  if (star) {
    try {
      return decodeURIComponent(star);
    } catch {
      // fall through
    }
  }
  return /filename="([^"]+)"/i.exec(header ?? '')?.[1] ?? fallback;
}

/**
 * Downloads files and folders as one zip (`POST /api/files/archive`): the server streams it; the browser keeps it
 * as a Blob and saves it under the server's name. Throws the server's error (e.g. 404 for an item gone meanwhile).
 */
export async function downloadArchive(items: { fileIds: string[]; folderIds: string[] }): Promise<string> {
  const response = await sendOk(ENDPOINTS.files.archive.path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/zip, application/json' },
    body: JSON.stringify(items),
  });
  const name = attachmentName(response.headers.get('content-disposition'), 'files.zip');
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
  return name;
}

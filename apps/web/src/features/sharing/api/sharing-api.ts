import { ENDPOINTS, type CreateLinkRequest, type ShareRole } from '@atrium/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';
import { sharedWithMeQueryOptions, spacesQueryOptions as sharedSpacesQueryOptions } from '../../../lib/queries/spaces';
import { queryKeys } from '../../../lib/query-keys';

/** What a share dialog is about: a file or a folder. */
export interface ShareTarget {
  kind: 'file' | 'folder';
  id: string;
  name: string;
}

/** Who a share goes to: a person (by owner key) or a workspace. */
export type Grantee = { kind: 'user'; id: string } | { kind: 'workspace'; id: string };

/** The share endpoints of a file or of a folder. */
const sharesOf = (target: Pick<ShareTarget, 'kind'>) =>
  target.kind === 'file' ? ENDPOINTS.sharing.fileShares : ENDPOINTS.sharing.folderShares;

/** This feature's own keys; the directory, spaces and shared-with-me keys are shared (lib/query-keys.ts). */
const sharingKeys = {
  shares: (target: Pick<ShareTarget, 'kind' | 'id'>) => ['shares', target.kind, target.id] as const,
  links: (target: Pick<ShareTarget, 'kind' | 'id'>) => ['links', target.kind, target.id] as const,
};

/** The owner and every grant of a file or folder. */
export const sharesQueryOptions = (target: Pick<ShareTarget, 'kind' | 'id'>) =>
  queryOptions({
    queryKey: sharingKeys.shares(target),
    queryFn: () => call(sharesOf(target).list, { params: { id: target.id } }),
  });

/** Adds a grant to a person or a workspace, or changes its role. */
export const setShare = (target: Pick<ShareTarget, 'kind' | 'id'>, grantee: Grantee, role: ShareRole) => {
  const shares = sharesOf(target);
  return grantee.kind === 'user'
    ? call(shares.setUser, { params: { id: target.id, userId: grantee.id }, body: { role } })
    : call(shares.setWorkspace, { params: { id: target.id, workspaceId: grantee.id }, body: { role } });
};

/** Revokes a grant. */
export const revokeShare = (target: Pick<ShareTarget, 'kind' | 'id'>, grantee: Grantee) => {
  const shares = sharesOf(target);
  return grantee.kind === 'user'
    ? call(shares.revokeUser, { params: { id: target.id, userId: grantee.id } })
    : call(shares.revokeWorkspace, { params: { id: target.id, workspaceId: grantee.id } });
};

/** Changes to the grants of one target, each reloading its list. */
export function useShareMutations(target: Pick<ShareTarget, 'kind' | 'id'>) {
  const client = useQueryClient();
  const reload = () => client.invalidateQueries({ queryKey: sharingKeys.shares(target) });
  const set = useMutation({
    mutationFn: ({ grantee, role }: { grantee: Grantee; role: ShareRole }) => setShare(target, grantee, role),
    onSettled: reload,
  });
  const revoke = useMutation({ mutationFn: (grantee: Grantee) => revokeShare(target, grantee), onSettled: reload });
  return { set, revoke };
}

/** GET /api/users?q=: people who have signed in, by name, nickname or email. */
export const directoryQueryOptions = (q: string) =>
  queryOptions({
    queryKey: queryKeys.directory(q),
    queryFn: ({ signal }) => call(ENDPOINTS.spaces.directory, { query: { q } }, { signal }),
    staleTime: 30_000,
  });

/** GET /api/spaces: the caller's spaces; its workspaces are what a share can go to besides people. */
export const spacesQueryOptions = () => queryOptions({ ...sharedSpacesQueryOptions(), staleTime: 60_000 });

/** The links of a file or folder. */
export const linksQueryOptions = (target: Pick<ShareTarget, 'kind' | 'id'>) =>
  queryOptions({
    queryKey: sharingKeys.links(target),
    queryFn: () =>
      call(ENDPOINTS.links.list, { query: target.kind === 'file' ? { fileId: target.id } : { folderId: target.id } }),
  });

/** A new link, with its token and url (`/s/{token}`). */
export const createLink = (body: CreateLinkRequest) => call(ENDPOINTS.links.create, { body });
export const revokeLink = (id: string) => call(ENDPOINTS.links.revoke, { params: { id } });

export function useLinkMutations(target: Pick<ShareTarget, 'kind' | 'id'>) {
  const client = useQueryClient();
  const reload = () => client.invalidateQueries({ queryKey: sharingKeys.links(target) });
  return {
    create: useMutation({ mutationFn: createLink, onSettled: reload }),
    revoke: useMutation({ mutationFn: revokeLink, onSettled: reload }),
  };
}

/** GET /api/shared-with-me (lib/queries/spaces.ts: the stored-file picker reads it too) */
export { sharedWithMeQueryOptions };
export const useSharedWithMe = () => useQuery(sharedWithMeQueryOptions());

/** The absolute address of a link's page, for copying. */
export const linkAddress = (url: string) => new URL(url, window.location.origin).toString();

import {
  DirectoryList,
  ENDPOINTS,
  RevokeShareResponse,
  ShareList,
  type CreateLinkRequest,
  type ShareRole,
} from '@atrium/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, call, request } from '../../../lib/api-client';
import {
  sharedWithMeKey,
  sharedWithMeQueryOptions,
  spacesKey,
  spacesQueryOptions as sharedSpacesQueryOptions,
} from '../../../lib/queries/spaces';

const enc = encodeURIComponent;

/** What a share dialog is about: a file or a folder. */
export interface ShareTarget {
  kind: 'file' | 'folder';
  id: string;
  name: string;
}

/** Who a share goes to: a person (by owner key) or a workspace. */
export type Grantee = { kind: 'user'; id: string } | { kind: 'workspace'; id: string };

const base = (target: Pick<ShareTarget, 'kind' | 'id'>) =>
  `/api/${target.kind === 'file' ? 'files' : 'folders'}/${enc(target.id)}/shares`;

const granteePath = (target: Pick<ShareTarget, 'kind' | 'id'>, grantee: Grantee) =>
  grantee.kind === 'user' ? `${base(target)}/${enc(grantee.id)}` : `${base(target)}/workspaces/${enc(grantee.id)}`;

export const sharingKeys = {
  shares: (target: Pick<ShareTarget, 'kind' | 'id'>) => ['shares', target.kind, target.id] as const,
  links: (target: Pick<ShareTarget, 'kind' | 'id'>) => ['links', target.kind, target.id] as const,
  directory: (q: string) => ['directory', q] as const,
  spaces: spacesKey,
  sharedWithMe: sharedWithMeKey,
};

/** GET /api/{files|folders}/{id}/shares: the owner and every grant. */
export const sharesQueryOptions = (target: Pick<ShareTarget, 'kind' | 'id'>) =>
  queryOptions({ queryKey: sharingKeys.shares(target), queryFn: () => api.get(ShareList, base(target)) });

/** PUT …/shares/{userId} or …/shares/workspaces/{workspaceId} `{ role }`: adds a grant or changes its role. */
export const setShare = (target: Pick<ShareTarget, 'kind' | 'id'>, grantee: Grantee, role: ShareRole) =>
  request(z.unknown(), granteePath(target, grantee), { method: 'PUT', body: { role } });

/** DELETE the same path: revokes the grant. */
export const revokeShare = (target: Pick<ShareTarget, 'kind' | 'id'>, grantee: Grantee) =>
  api.delete(RevokeShareResponse, granteePath(target, grantee));

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
    queryKey: sharingKeys.directory(q),
    queryFn: ({ signal }) => api.get(DirectoryList, `/api/users?q=${enc(q)}`, { signal }),
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

import { ENDPOINTS, type MemberRole } from '@atrium/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-client';

const E = ENDPOINTS.accounts;
const keys = {
  workspace: (id: string) => ['invitations', 'workspace', id] as const,
};

/** A workspace's pending invitations (owners). */
export const useWorkspaceInvitations = (workspaceId: string) =>
  useQuery({
    queryKey: keys.workspace(workspaceId),
    queryFn: () => call(E.workspaceInvitations, { params: { id: workspaceId } }),
  });

export function useInviteToWorkspace(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; role: MemberRole }) =>
      call(E.inviteToWorkspace, { params: { id: workspaceId }, body }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.workspace(workspaceId) }),
  });
}

export function useRevokeInvitation(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(E.revoke, { params: { id } }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.workspace(workspaceId) }),
  });
}

export function useResendInvitation(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(E.resend, { params: { id } }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.workspace(workspaceId) }),
  });
}

export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) => call(E.changePassword, { body }),
  });

const adminKeys = { invitations: ['invitations', 'instance'] as const, settings: ['invitations', 'settings'] as const };

export const useInstanceInvitations = () =>
  useQuery({ queryKey: adminKeys.invitations, queryFn: () => call(E.instanceInvitations) });

export function useInviteToInstance() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; role: 'user' | 'admin' }) => call(E.inviteToInstance, { body }),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.invitations }),
  });
}

export function useRevokeInstanceInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(E.revoke, { params: { id } }),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.invitations }),
  });
}

export const useCreateLocalUser = () =>
  useMutation({
    mutationFn: (body: { username: string; email?: string; name?: string; role: 'user' | 'admin' }) =>
      call(E.createLocalUser, { body }),
  });

export const useIssueReset = () =>
  useMutation({ mutationFn: (userId: string) => call(E.issueReset, { params: { userId } }) });

export const useInvitationSettings = () => useQuery({ queryKey: adminKeys.settings, queryFn: () => call(E.settings) });

export function useUpdateInvitationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { whoMayInvite?: 'admins' | 'owners'; signUpDomains?: string[] }) =>
      call(E.updateSettings, { body }),
    onSuccess: (data) => client.setQueryData(adminKeys.settings, data),
  });
}

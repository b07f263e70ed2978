import {
  type ContactMessagePatch,
  type CreateApiKeyRequest,
  ENDPOINTS,
  NEXT_CURSOR_HEADER,
  type AdminUserPatch,
  type AuditAction,
  type InstanceSettingsPatch,
} from '@atrium/contracts';
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { endpointPath } from '@atrium/contracts/endpoint';
import { call } from '../../../lib/api-client';
import { sendOk } from '../../../lib/http';

/** The admin screens' query keys (only this feature reads them; shared keys are in lib/query-keys.ts). */
const adminKeys = {
  users: () => ['admin', 'users'] as const,
  usersMatching: (q: string) => ['admin', 'users', q] as const,
  audit: (filters: AuditFilters) => ['admin', 'audit', filters] as const,
  apiKeys: () => ['admin', 'api-keys'] as const,
  contact: () => ['admin', 'contact'] as const,
  contactList: () => ['admin', 'contact', 'list'] as const,
  contactUnread: () => ['admin', 'contact', 'unread'] as const,
  system: () => ['admin', 'system'] as const,
  settings: () => ['admin', 'settings'] as const,
};

/** One page of `GET /api/admin/users` and the cursor of the next (from `X-Next-Cursor`). */
export async function fetchAdminUsers(q: string, cursor: string | undefined) {
  const response = await sendOk(endpointPath(ENDPOINTS.admin.users, {}, { q, cursor }), {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  return {
    users: ENDPOINTS.admin.users.response.parse(await response.json()),
    nextCursor: response.headers.get(NEXT_CURSOR_HEADER) ?? undefined,
  };
}

export const adminUsersQueryOptions = (q: string) =>
  infiniteQueryOptions({
    queryKey: adminKeys.usersMatching(q),
    queryFn: ({ pageParam }) => fetchAdminUsers(q, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
  });

export const useAdminUsers = (q: string) => useInfiniteQuery(adminUsersQueryOptions(q));

export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, patch }: { userId: string; patch: AdminUserPatch }) =>
      call(ENDPOINTS.admin.updateUser, { params: { userId }, body: patch }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}

export function useRevokeSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => call(ENDPOINTS.admin.revokeSessions, { params: { userId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}

/** Transfer files: everything of a disabled user's personal space goes to `toUserId` (audited by the server). */
export function useTransferFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, toUserId }: { userId: string; toUserId: string }) =>
      call(ENDPOINTS.admin.transferFiles, { params: { userId }, body: { toUserId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
  });
}

export interface AuditFilters {
  actor?: string;
  action?: AuditAction | '';
  target?: string;
  /** yyyy-mm-dd (inclusive) */
  from?: string;
  /** yyyy-mm-dd (inclusive: the whole day) */
  to?: string;
}

/** The query of the audit filters (shared by the page and the CSV link); unset filters stay out of the address. */
function auditQuery(filters: AuditFilters) {
  const dayStart = (day: string, plusDays = 0) => {
    const date = new Date(`${day}T00:00:00`);
    date.setDate(date.getDate() + plusDays);
    return date.toISOString();
  };
  return {
    actor: filters.actor,
    action: filters.action,
    target: filters.target,
    from: filters.from ? dayStart(filters.from) : undefined,
    // `to` is inclusive: up to the start of the next day.
    to: filters.to ? dayStart(filters.to, 1) : undefined,
  };
}

export const auditQueryOptions = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: adminKeys.audit(filters),
    queryFn: ({ pageParam }) => call(ENDPOINTS.admin.audit, { query: { ...auditQuery(filters), cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useAuditLog = (filters: AuditFilters) => useInfiniteQuery(auditQueryOptions(filters));

/** The CSV export of everything the filters match (a link: the browser downloads it). */
export const auditCsvUrl = (filters: AuditFilters) => endpointPath(ENDPOINTS.admin.auditCsv, {}, auditQuery(filters));

// --- API keys (the AI compatibility endpoints' keys, /api/ai/keys) ---

export const apiKeysQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.apiKeys(), queryFn: () => call(ENDPOINTS.ai.keys) });

export const useApiKeys = () => useQuery(apiKeysQueryOptions());

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyRequest) => call(ENDPOINTS.ai.createKey, { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.apiKeys() }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(ENDPOINTS.ai.revokeKey, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.apiKeys() }),
  });
}

// --- Contact messages (/api/contact) ---

export const contactMessagesQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.contactList(), queryFn: () => call(ENDPOINTS.contact.messages) });

export const useContactMessages = () => useQuery(contactMessagesQueryOptions());

/** The unread count for the sidebar's badge: fetched for admins only, refreshed every minute. */
export const useContactUnreadCount = (enabled: boolean) =>
  useQuery({
    queryKey: adminKeys.contactUnread(),
    queryFn: () => call(ENDPOINTS.contact.unreadCount),
    enabled,
    refetchInterval: 60_000,
    select: (data) => data.unread,
  });

export function useUpdateContactMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: ContactMessagePatch }) =>
      call(ENDPOINTS.contact.updateMessage, { params: { id }, body: patch }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.contact() }),
  });
}

export function useDeleteContactMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(ENDPOINTS.contact.deleteMessage, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.contact() }),
  });
}

// --- System status (/api/admin/system) ---

/** How often the system screen refreshes. */
export const SYSTEM_REFRESH_MS = 15_000;

export const systemStatusQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.system(),
    queryFn: () => call(ENDPOINTS.system.status),
    refetchInterval: SYSTEM_REFRESH_MS,
  });

export const useSystemStatus = () => useQuery(systemStatusQueryOptions());

/** GET /api/admin/settings: instance settings (docs/PRODUCT.md#workspace-members). */
export const instanceSettingsQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.settings(), queryFn: () => call(ENDPOINTS.admin.settings) });
export const useInstanceSettings = () => useQuery(instanceSettingsQueryOptions());

export function useUpdateInstanceSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InstanceSettingsPatch) => call(ENDPOINTS.admin.updateSettings, { body }),
    onSuccess: (settings) => queryClient.setQueryData(instanceSettingsQueryOptions().queryKey, settings),
  });
}

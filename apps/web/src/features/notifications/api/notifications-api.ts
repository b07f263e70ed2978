import {
  ENDPOINTS,
  NOTIFICATION_TEXTS,
  type ScheduleNotificationRequest,
  type PushSubscriptionInput,
  type PublishRequest,
  type NotificationInbox,
} from '@atrium/contracts';
import {
  type InfiniteData,
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { call, isApiError } from '../../../lib/api-client';
import { spacesQueryOptions } from '../../../lib/queries/spaces';
import { queryKeys } from '../../../lib/query-keys';

const E = ENDPOINTS.notifications;

/** This feature's own query keys (the admin's history and schedule; shared keys are in lib/query-keys.ts). */
const notificationKeys = {
  subscriberCount: () => ['notifications', 'subscribers', 'count'] as const,
  sent: () => ['admin', 'notifications'] as const,
  history: () => ['admin', 'notifications', 'history'] as const,
  scheduled: () => ['admin', 'notifications', 'scheduled'] as const,
};

export const subscriberCountQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.subscriberCount(),
    queryFn: () => call(E.subscriberCount),
    refetchInterval: 15_000,
  });

export const useSubscriberCount = (enabled = true) => useQuery({ ...subscriberCountQueryOptions(), enabled });

/** Who a notification goes to: everyone (the spec's default), one workspace's members, or one person. */
export type Audience = { kind: 'everyone' } | { kind: 'workspace'; id: string } | { kind: 'person'; ownerKey: string };

export const publishNotification = ({
  message,
  audience = { kind: 'everyone' },
}: {
  message: string;
  audience?: Audience;
}) =>
  call(E.publish, {
    body: {
      message,
      timestamp: new Date().toISOString(),
      type: 'admin',
      ...(audience.kind === 'workspace' ? { workspaceId: audience.id } : {}),
      ...(audience.kind === 'person' ? { userId: audience.ownerKey } : {}),
    } satisfies PublishRequest,
  });

/** The admin's own workspaces (GET /api/spaces, the one spaces query), to publish to one of them. */
export const useWorkspaceChoices = (enabled: boolean) =>
  useQuery({
    ...spacesQueryOptions(),
    select: (spaces) => spaces.flatMap((space) => (space.kind === 'workspace' ? [space] : [])),
    enabled,
  });

/** People who have signed in matching `q` (GET /api/users), to publish to one of them. */
export const usePeopleChoices = (q: string) =>
  useQuery({
    queryKey: queryKeys.directory(q),
    queryFn: () => call(ENDPOINTS.spaces.directory, { query: { q } }),
    enabled: q.trim().length > 0,
  });

/** How often the history refreshes (its delivery counts grow for a moment after each send). */
export const HISTORY_REFRESH_MS = 15_000;

/** GET /api/admin/notifications: what was published, newest first, a page at a time. */
export const notificationHistoryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: notificationKeys.history(),
    queryFn: ({ pageParam }) => call(E.history, { query: { cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: HISTORY_REFRESH_MS,
  });

export const useNotificationHistory = () => useInfiniteQuery(notificationHistoryQueryOptions());

/** GET /api/admin/notifications/scheduled: messages not sent yet, soonest first. */
export const scheduledNotificationsQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.scheduled(),
    queryFn: () => call(E.scheduled),
    refetchInterval: HISTORY_REFRESH_MS,
  });

export const useScheduledNotifications = () => useQuery(scheduledNotificationsQueryOptions());

/** Schedules a message: `sendAt` is a `datetime-local` value (the browser's time zone). */
export function useScheduleNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ message, audience, sendAt }: { message: string; audience: Audience; sendAt: string }) =>
      call(E.schedule, {
        body: {
          message,
          sendAt: new Date(sendAt).toISOString(),
          ...(audience.kind === 'workspace' ? { workspaceId: audience.id } : {}),
          ...(audience.kind === 'person' ? { userId: audience.ownerKey } : {}),
        } satisfies ScheduleNotificationRequest,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.sent() }),
  });
}

export function useCancelScheduledNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(E.cancelScheduled, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.sent() }),
  });
}

export function usePublishNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishNotification,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: subscriberCountQueryOptions().queryKey });
      // The counts arrive just after the answer: refresh now and once more a moment later.
      await queryClient.invalidateQueries({ queryKey: notificationKeys.sent() });
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: notificationKeys.sent() }), 1500);
    },
  });
}

/** What to tell the admin when publishing fails: the server's refusal as is, otherwise the text of docs/PRODUCT.md#notification-messages. */
export function publishErrorMessage(error: unknown): string {
  if (isApiError(error) && (error.status === 400 || error.status === 403)) return error.message;
  return NOTIFICATION_TEXTS.publishFailed;
}

export const requestWelcomeNotification = () => call(E.welcome);

export const getVapidPublicKey = () => call(E.vapidPublicKey);

export const postSubscription = (userId: string, subscription: PushSubscriptionInput | undefined) =>
  call(E.subscribe, { body: { userId, ...(subscription ? { subscription } : {}) } });

/** The signed-in person's list as the server keeps it (docs/PRODUCT.md#notifications): read state, unread count. */
export const inboxKey = () => ['notifications', 'inbox'] as const;

export const inboxQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: inboxKey(),
    queryFn: ({ pageParam }) => call(E.inbox, { query: { cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useInbox = (enabled = true) => useInfiniteQuery({ ...inboxQueryOptions(), enabled });

type InboxData = InfiniteData<NotificationInbox, string | undefined>;

/**
 * Marking read (one, all) and Clear all: shown at once, then the server's answer; a refusal brings the list back
 * as the server has it.
 */
export function useInboxActions() {
  const client = useQueryClient();
  const settle = () => client.invalidateQueries({ queryKey: inboxKey() });
  const optimistic = async (change: (data: InboxData) => InboxData) => {
    await client.cancelQueries({ queryKey: inboxKey() });
    client.setQueryData<InboxData>(inboxKey(), (data) => (data ? change(data) : data));
  };
  const markRead = useMutation({
    mutationFn: (id: string) => call(E.markRead, { params: { id } }),
    onMutate: (id) =>
      optimistic((data) => ({
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          unread: Math.max(0, page.unread - (page.items.some((n) => n.id === id && !n.read) ? 1 : 0)),
          items: page.items.map((n) => (n.id === id ? { ...n, read: true } : n)),
        })),
      })),
    onSettled: settle,
  });
  const markAllRead = useMutation({
    mutationFn: () => call(E.markAllRead),
    onMutate: () =>
      optimistic((data) => ({
        ...data,
        pages: data.pages.map((page) => ({ ...page, unread: 0, items: page.items.map((n) => ({ ...n, read: true })) })),
      })),
    onSettled: settle,
  });
  const clear = useMutation({
    mutationFn: () => call(E.clear),
    onMutate: () =>
      optimistic((data) => ({ ...data, pages: [{ items: [], unread: 0, nextCursor: null }], pageParams: [undefined] })),
    onSettled: settle,
  });
  return { markRead, markAllRead, clear };
}

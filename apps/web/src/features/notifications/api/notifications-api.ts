import {
  NOTIFICATION_TEXTS,
  Notification,
  type PushSubscriptionInput,
  SubscribeResponse,
  SubscriberCount,
  VapidPublicKey,
  WelcomeResponse,
  type PublishRequest,
} from '@atrium/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../../../lib/api-client';

const BASE = '/public/api/notifications';

export const subscriberCountQueryOptions = () =>
  queryOptions({
    queryKey: ['notifications', 'subscribers', 'count'],
    queryFn: () => api.get(SubscriberCount, `${BASE}/subscribers/count`),
    refetchInterval: 15_000,
  });

export const useSubscriberCount = (enabled = true) => useQuery({ ...subscriberCountQueryOptions(), enabled });

export const publishNotification = (message: string) =>
  api.post(Notification, BASE, {
    message,
    timestamp: new Date().toISOString(),
    type: 'admin',
  } satisfies PublishRequest);

export function usePublishNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishNotification,
    onSettled: () => queryClient.invalidateQueries({ queryKey: subscriberCountQueryOptions().queryKey }),
  });
}

/** What to tell the admin when publishing fails: the server's refusal as is, otherwise the text of docs/PRODUCT.md#notification-messages. */
export function publishErrorMessage(error: unknown): string {
  if (isApiError(error) && (error.status === 400 || error.status === 403)) return error.message;
  return NOTIFICATION_TEXTS.publishFailed;
}

export const requestWelcomeNotification = () => api.post(WelcomeResponse, `${BASE}/welcome`);

export const getVapidPublicKey = () => api.get(VapidPublicKey, `${BASE}/vapid-public-key`);

export const postSubscription = (userId: string, subscription: PushSubscriptionInput | undefined) =>
  api.post(SubscribeResponse, `${BASE}/subscribe`, { userId, ...(subscription ? { subscription } : {}) });

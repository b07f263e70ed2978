import { useSyncExternalStore } from 'react';
import { notificationsStore, type StoredNotification } from '../lib/notifications-store';

/** The browser's notification list, newest first. */
export const useNotifications = (): StoredNotification[] =>
  useSyncExternalStore(notificationsStore.subscribe, notificationsStore.getSnapshot, notificationsStore.getSnapshot);

/** Number of unread notifications, for the sidebar badge and the bell animation. */
export function useUnreadCount(): number {
  return useNotifications().filter((n) => !n.read).length;
}

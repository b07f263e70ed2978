import { useMe } from '../../../lib/me';
import { useInbox } from '../api/notifications-api';

/** Unread notifications as the server counts them, for the sidebar badge and the bell animation. */
export function useUnreadCount(): number {
  const me = useMe();
  return useInbox(Boolean(me.data)).data?.pages[0]?.unread ?? 0;
}

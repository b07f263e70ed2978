/**
 * The notifications feature's public surface, used by the app layer (layouts,
 * sidebar, profile, dashboard home). These are integration seams: the
 * signatures are the contract; the notifications feature fills them in.
 */

/** Number of unread notifications, for the sidebar badge and the bell animation. */
export function useUnreadCount(): number {
  return 0;
}

/** Mounted once in the dashboard layout: live stream, info toasts, latest-message banner. */
export function NotificationsRuntime(): null {
  return null;
}

/** Called by the profile page: on first login, subscribe to push, set firstLogin=false, show the greeting banner. */
export function useFirstLoginSubscription(): { greeting: string | null } {
  return { greeting: null };
}

/** Called by the dashboard home: asks the server for the one-time welcome notification. */
export function useWelcomeNotification(): void {}

/**
 * The notifications feature's public surface, used by the app layer (layouts,
 * sidebar, profile, dashboard home, login).
 */
export { useUnreadCount, useNotifications } from './hooks/use-notifications';
export { NotificationsRuntime } from './components/notifications-runtime';
export { useFirstLoginSubscription } from './hooks/use-first-login-subscription';
export { useWelcomeNotification } from './hooks/use-welcome-notification';
export { subscribeToNotifications, SubscribeError } from './lib/subscribe';
export { subscribeAtLogin } from './lib/subscribe-at-login';

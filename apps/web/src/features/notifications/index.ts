/**
 * The notifications feature's public surface, used by the app layer (layouts,
 * sidebar, profile, dashboard home, login).
 */
export { useUnreadCount } from './hooks/use-notifications';
export { NotificationsRuntime } from './components/notifications-runtime';
export { useFirstLoginSubscription } from './hooks/use-first-login-subscription';
export { useWelcomeNotification } from './hooks/use-welcome-notification';
export { subscribeAtLogin } from './lib/subscribe-at-login';

/** The admin console's public surface for the app layer. */
export { useContactUnreadCount } from './api/admin-api';

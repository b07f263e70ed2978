import { NOTIFICATION_TEXTS } from '@atrium/contracts';
import { showToast } from '../../../lib/toast';
import { subscribeToNotifications } from './subscribe';

/** After the admin login, try to subscribe; on failure warn 'Could not subscribe to notifications' (docs/PRODUCT.md#admin-sign-in). */
export async function subscribeAtLogin(userId: string): Promise<boolean> {
  try {
    await subscribeToNotifications(userId);
    return true;
  } catch {
    showToast('warning', NOTIFICATION_TEXTS.subscribeAtLogin);
    return false;
  }
}

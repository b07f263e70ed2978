import { NOTIFICATION_TEXTS, PushSubscriptionInput, type SubscribeResponse } from '@atrium/contracts';
import { isApiError } from '../../../lib/api-client';
import { getVapidPublicKey, postSubscription } from '../api/notifications-api';

export const SERVICE_WORKER_URL = '/sw.js';

/** A subscription failure, with the text to show the user (docs/PRODUCT.md#notification-messages). */
export class SubscribeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SubscribeError';
  }
}

const base64UrlToBytes = (text: string): Uint8Array<ArrayBuffer> => {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = window.atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
};

/** Registers the service worker that shows pushed notifications; undefined where unsupported. */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | undefined> {
  if (!('serviceWorker' in navigator)) return undefined;
  try {
    await navigator.serviceWorker.register(SERVICE_WORKER_URL);
    return await navigator.serviceWorker.ready;
  } catch {
    return undefined;
  }
}

/**
 * This browser's Web Push subscription, created if needed. Web Push is an
 * extra: where it is unavailable (no push service, e.g. headless browsers)
 * the live stream still delivers, so failures here are not errors.
 */
async function pushSubscription(): Promise<PushSubscriptionInput | undefined> {
  if (!('PushManager' in window)) return undefined;
  const registration = await registerServiceWorker();
  if (!registration) return undefined;
  try {
    const existing = await registration.pushManager.getSubscription();
    const subscription =
      existing ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64UrlToBytes((await getVapidPublicKey()).publicKey),
      }));
    const parsed = PushSubscriptionInput.safeParse(subscription.toJSON());
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Subscribes the signed-in user: asks for notification permission first,
 * then registers with the server (with a Web Push subscription when the
 * browser can make one). Throws SubscribeError with the texts of docs/PRODUCT.md#notification-messages.
 */
export async function subscribeToNotifications(userId: string): Promise<SubscribeResponse> {
  if (typeof window === 'undefined' || !('Notification' in window)) {
    throw new SubscribeError(NOTIFICATION_TEXTS.noBrowserSupport);
  }
  const permission = await window.Notification.requestPermission();
  if (permission !== 'granted') throw new SubscribeError(NOTIFICATION_TEXTS.permissionDenied);
  const subscription = await pushSubscription();
  try {
    return await postSubscription(userId || 'anonymous', subscription);
  } catch (error) {
    const serverText = isApiError(error) && error.status >= 400 && error.code !== 'HTTP_ERROR';
    throw new SubscribeError(serverText ? error.message : NOTIFICATION_TEXTS.subscribeFailed);
  }
}

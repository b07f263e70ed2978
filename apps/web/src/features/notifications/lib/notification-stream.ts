import { ENDPOINTS, Notification } from '@atrium/contracts';
import { endpointPath } from '@atrium/contracts/endpoint';
import { checkSession } from '../../../lib/me';
import { notificationsStore } from './notifications-store';

export interface StreamHandlers {
  onNotification(notification: Notification): void;
  onParseError(): void;
}

export interface StreamOptions {
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** For tests. */
  createEventSource?: (url: string) => EventSource;
}

/** Reconnect delay after `attempt` failures: exponential, capped, with jitter (half to full). */
export const backoffDelay = (attempt: number, baseMs: number, maxMs: number, random = Math.random) =>
  Math.round(Math.min(maxMs, baseMs * 2 ** attempt) * (0.5 + random() / 2));

/**
 * The live notification stream. On an error the stream is closed
 * (docs/PRODUCT.md#live-updates) and a new one is opened after a backoff,
 * resuming after the last id received (`?lastEventId=`, since EventSource
 * cannot set headers). Returns a function that stops it.
 */
export function connectNotificationStream(handlers: StreamHandlers, options: StreamOptions = {}): () => void {
  const baseMs = options.baseDelayMs ?? 1000;
  const maxMs = options.maxDelayMs ?? 30_000;
  const create = options.createEventSource ?? ((url: string) => new EventSource(url, { withCredentials: true }));
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let stopped = false;

  const open = () => {
    const last = notificationsStore.getLastEventId();
    source = create(endpointPath(ENDPOINTS.notifications.stream, {}, { lastEventId: last }));
    source.onopen = () => {
      attempt = 0;
    };
    source.onmessage = (event: MessageEvent<string>) => {
      let notification: Notification;
      try {
        notification = Notification.parse(JSON.parse(event.data));
      } catch {
        handlers.onParseError();
        return;
      }
      if (event.lastEventId) notificationsStore.setLastEventId(event.lastEventId);
      handlers.onNotification(notification);
    };
    source.onerror = () => {
      source?.close();
      source = null;
      if (stopped) return;
      // EventSource cannot read the status: ask whether the session ended (a 401 leads to /login with its reason).
      void checkSession();
      timer = setTimeout(open, backoffDelay(attempt, baseMs, maxMs));
      attempt += 1;
    };
  };

  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
    source = null;
  };
}

import { Notification } from '@atrium/contracts';
import { z } from 'zod';

/** localStorage key of the list: the notifications list is kept in browser storage (docs/PRODUCT.md#browser-flags). */
export const STORAGE_KEY = 'notifications';
/** The id of the last stream event received, so a new stream resumes after it. */
export const LAST_EVENT_ID_KEY = 'notificationsLastEventId';
/** Oldest entries beyond this are dropped. */
const MAX_KEPT = 200;

export type StoredNotification = Notification & { read: boolean };

const Stored = z.array(z.unknown());
const Entry = Notification.extend({ read: z.boolean().default(false) });

function readStorage(): StoredNotification[] {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (!raw) return [];
    const items = Stored.parse(JSON.parse(raw));
    return items.flatMap((item) => {
      const parsed = Entry.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
  } catch {
    return [];
  }
}

let state: StoredNotification[] = typeof window === 'undefined' ? [] : readStorage();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

function commit(next: StoredNotification[]) {
  state = next;
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Storage full or disabled: the list still works for this page.
  }
  emit();
}

if (typeof window !== 'undefined') {
  // Another tab changed the list: follow it.
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEY || event.key === null) {
      state = readStorage();
      emit();
    }
  });
}

/**
 * The browser's notification list (newest first), shared by the runtime, the
 * page and the badge. A notification arriving with an id already in the list
 * replaces the old entry and is unread again.
 */
export const notificationsStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: () => state,
  receive(notification: Notification) {
    const entry: StoredNotification = { ...notification, read: false };
    commit([entry, ...state.filter((n) => n.id !== notification.id)].slice(0, MAX_KEPT));
  },
  markRead(id: string) {
    if (!state.some((n) => n.id === id && !n.read)) return;
    commit(state.map((n) => (n.id === id ? { ...n, read: true } : n)));
  },
  clearAll() {
    commit([]);
  },
  /** Re-reads storage (tests, and after a user switch). */
  reload() {
    state = readStorage();
    emit();
  },
  getLastEventId(): string | null {
    try {
      return window.localStorage.getItem(LAST_EVENT_ID_KEY);
    } catch {
      return null;
    }
  },
  setLastEventId(id: string) {
    try {
      window.localStorage.setItem(LAST_EVENT_ID_KEY, id);
    } catch {
      // ignore
    }
  },
};

type ArrivalListener = (notification: Notification) => void;
const arrivalListeners = new Set<ArrivalListener>();
const announced = new Set<string>();

/**
 * Takes in a notification from any source (the live stream, the welcome
 * call): stores it, and announces it once per page (toast and banner), even
 * when it reaches the page by two ways.
 */
export function ingestNotification(notification: Notification) {
  notificationsStore.receive(notification);
  const key = `${notification.id}:${notification.timestamp}`;
  if (announced.has(key)) return;
  announced.add(key);
  arrivalListeners.forEach((listener) => listener(notification));
}

export function onNotificationArrival(listener: ArrivalListener) {
  arrivalListeners.add(listener);
  return () => {
    arrivalListeners.delete(listener);
  };
}

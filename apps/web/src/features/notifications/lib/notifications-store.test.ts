import { beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, connectNotificationStream } from './notification-stream';
import {
  LAST_EVENT_ID_KEY,
  STORAGE_KEY,
  ingestNotification,
  notificationsStore,
  onNotificationArrival,
} from './notifications-store';

const note = (id: string, message = `message ${id}`) => ({
  id,
  message,
  timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, Number(id))).toISOString(),
  type: 'admin' as const,
});

beforeEach(() => {
  window.localStorage.clear();
  notificationsStore.reload();
});

describe('notifications store', () => {
  it('keeps newest first, unread on arrival, and persists to localStorage under "notifications"', () => {
    notificationsStore.receive(note('1'));
    notificationsStore.receive(note('2'));
    expect(notificationsStore.getSnapshot().map((n) => [n.id, n.read])).toEqual([
      ['2', false],
      ['1', false],
    ]);
    const stored = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '[]') as { id: string }[];
    expect(stored.map((n) => n.id)).toEqual(['2', '1']);
  });

  it('marks one read on click and empties on Clear All', () => {
    notificationsStore.receive(note('1'));
    notificationsStore.receive(note('2'));
    notificationsStore.markRead('1');
    expect(notificationsStore.getSnapshot().find((n) => n.id === '1')?.read).toBe(true);
    expect(notificationsStore.getSnapshot().find((n) => n.id === '2')?.read).toBe(false);
    notificationsStore.clearAll();
    expect(notificationsStore.getSnapshot()).toEqual([]);
    expect(window.localStorage.getItem(STORAGE_KEY)).toBe('[]');
  });

  it('replaces a notification arriving with an existing id, which becomes unread again', () => {
    notificationsStore.receive(note('1', 'old text'));
    notificationsStore.receive(note('2'));
    notificationsStore.markRead('1');
    notificationsStore.receive(note('1', 'new text'));
    const list = notificationsStore.getSnapshot();
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ id: '1', message: 'new text', read: false });
  });

  it('reloads what a previous page stored and ignores corrupt entries', () => {
    window.localStorage.setItem(
      STORAGE_KEY,
      JSON.stringify([{ ...note('5'), read: true }, { nonsense: true }, note('4')]),
    );
    notificationsStore.reload();
    expect(notificationsStore.getSnapshot().map((n) => [n.id, n.read])).toEqual([
      ['5', true],
      ['4', false],
    ]);
    window.localStorage.setItem(STORAGE_KEY, '{not json');
    notificationsStore.reload();
    expect(notificationsStore.getSnapshot()).toEqual([]);
  });

  it('announces each notification once even when it arrives by two ways', () => {
    const heard = vi.fn();
    const stop = onNotificationArrival(heard);
    ingestNotification(note('9'));
    ingestNotification(note('9'));
    stop();
    expect(heard).toHaveBeenCalledTimes(1);
    expect(notificationsStore.getSnapshot()).toHaveLength(1);
  });
});

class FakeEventSource {
  static instances: FakeEventSource[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: MessageEvent<string>) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  close() {
    this.closed = true;
  }
  emit(data: string, lastEventId = '') {
    this.onmessage?.(new MessageEvent('message', { data, lastEventId }));
  }
}

describe('notification stream client', () => {
  beforeEach(() => {
    FakeEventSource.instances = [];
  });

  it('parses events, remembers the last id, reports parse failures, and reconnects with backoff from the last id', () => {
    vi.useFakeTimers();
    const received: string[] = [];
    const parseErrors = vi.fn();
    const stop = connectNotificationStream(
      { onNotification: (n) => received.push(n.message), onParseError: parseErrors },
      {
        baseDelayMs: 1000,
        maxDelayMs: 8000,
        createEventSource: (url) => new FakeEventSource(url) as unknown as EventSource,
      },
    );
    const first = FakeEventSource.instances[0];
    expect(first?.url).toBe('/public/api/notifications/stream');
    first?.emit(JSON.stringify(note('7', 'hello')), '7');
    first?.emit('{broken', '8');
    first?.emit(JSON.stringify({ id: 8 }), '8');
    expect(received).toEqual(['hello']);
    expect(parseErrors).toHaveBeenCalledTimes(2);
    expect(window.localStorage.getItem(LAST_EVENT_ID_KEY)).toBe('7');

    first?.onerror?.();
    expect(first?.closed).toBe(true);
    expect(FakeEventSource.instances).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    const second = FakeEventSource.instances[1];
    expect(second?.url).toBe('/public/api/notifications/stream?lastEventId=7');

    // Repeated failures wait longer (exponential), capped.
    second?.onerror?.();
    vi.advanceTimersByTime(999);
    expect(FakeEventSource.instances).toHaveLength(2);
    vi.advanceTimersByTime(1001);
    expect(FakeEventSource.instances).toHaveLength(3);

    stop();
    expect(FakeEventSource.instances[2]?.closed).toBe(true);
    vi.useRealTimers();
  });

  it('computes capped exponential delays with jitter', () => {
    expect(backoffDelay(0, 1000, 30_000, () => 1)).toBe(1000);
    expect(backoffDelay(3, 1000, 30_000, () => 1)).toBe(8000);
    expect(backoffDelay(10, 1000, 30_000, () => 1)).toBe(30_000);
    expect(backoffDelay(3, 1000, 30_000, () => 0)).toBe(4000);
  });
});

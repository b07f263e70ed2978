import type { Notification } from '@atrium/contracts';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me, renderAt, stubFetch } from '../../../test/render';
import { useUnreadCount } from '../hooks/use-notifications';
import { ingestNotification } from '../lib/notifications-store';
import { NotificationsRuntime } from './notifications-runtime';

/** A stream that never opens: the test hands notifications in itself. */
class QuietEventSource {
  onopen: (() => void) | null = null;
  onmessage: (() => void) | null = null;
  onerror: (() => void) | null = null;
  close() {}
}

afterEach(() => vi.unstubAllGlobals());

/** The sidebar's badge, as the layout shows it. */
function Badge() {
  return <span data-testid="badge">{useUnreadCount()}</span>;
}

describe('live notifications', () => {
  it('shows each arrival once, in the banner, never also as a toast', async () => {
    vi.stubGlobal('EventSource', QuietEventSource);
    let inboxFetches = 0;
    const calls = stubFetch((url) =>
      url === '/api/me'
        ? { status: 200, body: me() }
        : url.startsWith('/public/api/notifications/inbox')
          ? { status: 200, body: { items: [], unread: inboxFetches++, nextCursor: null } }
          : undefined,
    );
    renderAt(
      '/dashboard',
      <>
        <NotificationsRuntime />
        <Badge />
      </>,
    );
    await vi.waitFor(() => expect(calls.some((c) => c.url === '/api/me')).toBe(true));
    const arrival: Notification = {
      id: '41',
      message: 'Lunch is on the house',
      timestamp: '2026-11-28T10:00:00.000Z',
      type: 'workspace',
      workspace: { id: 'ws1', name: 'Design' },
      sender: { name: 'Alice' },
    };
    await vi.waitFor(() => expect(screen.getByTestId('badge').textContent).toBe('0'));
    act(() => ingestNotification(arrival));
    const banner = await screen.findByTestId('notification-banner');
    expect(banner.textContent).toContain('From Alice in Design: Lunch is on the house');
    expect(screen.getAllByText(/Lunch is on the house/)).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
    // The banner is at most three lines tall: it never covers a third of a phone's screen.
    expect(banner.querySelector('p')?.className).toContain('line-clamp-3');
  });
});

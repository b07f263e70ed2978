import type { Notification } from '@atrium/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { me, renderAt, stubFetch } from '../../../test/render';
import NotificationsPage from './notifications';

const workspace = { id: 'ws1', name: 'Atrium Security Team' };
const added: Notification = {
  id: '1',
  message: 'Eve Example added you to Atrium Security Team (editor)',
  timestamp: '2026-11-27T10:00:00.000Z',
  type: 'membership',
  workspace,
  sender: { name: 'Eve Example' },
  membership: { role: 'editor', state: 'added' },
};
const spoof: Notification = {
  id: '2',
  message: 'SPOOF: Your password expires today',
  timestamp: '2026-11-27T10:01:00.000Z',
  type: 'workspace',
  workspace,
  sender: { name: 'Eve Example' },
};
const announcement: Notification = {
  id: '3',
  message: 'Maintenance tonight',
  timestamp: '2026-11-27T10:02:00.000Z',
  type: 'admin',
};
const invited: Notification = {
  id: '4',
  message: 'Eve Example invited you to Plans (viewer)',
  timestamp: '2026-11-27T10:03:00.000Z',
  type: 'membership',
  workspace: { id: 'ws2', name: 'Plans' },
  sender: { name: 'Eve Example' },
  membership: { role: 'viewer', state: 'invited' },
};

const shared: Notification = {
  id: '5',
  message: 'Bob shared brief.txt with you',
  timestamp: '2026-11-27T10:04:00.000Z',
  type: 'other',
  subject: { kind: 'file', id: 'file-9', workspaceId: null },
};
const dropped: Notification = {
  id: '6',
  message: '3 files arrived in Clients through your file-drop link',
  timestamp: '2026-11-27T10:05:00.000Z',
  type: 'other',
  subject: { kind: 'folder', id: 'folder-3', workspaceId: 'ws1' },
};

/** The server's list: every item unread but the announcement. */
let items: (Notification & { read: boolean })[] = [];
beforeEach(() => {
  items = [dropped, shared, invited, announcement, spoof, added].map((n) => ({ ...n, read: n.id === '3' }));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const INBOX = '/public/api/notifications/inbox';
/** Answers /api/me and the inbox; `more` answers the rest. */
const server =
  (
    more: (url: string, init: RequestInit | undefined) => { status: number; body: unknown } | undefined = () =>
      undefined,
  ) =>
  (url: string, init: RequestInit | undefined) =>
    url === '/api/me'
      ? { status: 200, body: me() }
      : url.startsWith(INBOX)
        ? { status: 200, body: { items, unread: items.filter((n) => !n.read).length, nextCursor: null } }
        : more(url, init);

const itemOf = (text: string) => screen.getByText(text).closest('li') as HTMLElement;
const findItem = async (text: string) => (await screen.findByText(text)).closest('li') as HTMLElement;

describe('notifications page: membership notices and workspace messages', () => {
  it('shows a workspace message with its sender and workspace, never as an announcement', async () => {
    stubFetch(server());
    renderAt('/dashboard/notifications', <NotificationsPage />);
    const message = await findItem(spoof.message);
    expect(message.dataset.type).toBe('workspace');
    expect(within(message).getByText('From Eve Example in Atrium Security Team')).toBeTruthy();
    expect(within(message).getByText('Workspace message')).toBeTruthy();
    expect(within(message).queryByText('Announcement')).toBeNull();
    expect(within(itemOf(announcement.message)).getByText('Announcement')).toBeTruthy();
    expect(within(itemOf(added.message)).getByText('Membership')).toBeTruthy();
  });

  it('offers "Open workspace" and one-click "Leave" on a notice of being added', async () => {
    const calls = stubFetch(
      server((url, init) =>
        init?.method === 'DELETE' && url === '/api/workspaces/ws1/members/alice'
          ? { status: 200, body: { ownerKey: 'alice', removed: true } }
          : undefined,
      ),
    );
    renderAt('/dashboard/notifications', <NotificationsPage />);
    const notice = await findItem(added.message);
    expect(within(notice).getByRole('link', { name: 'Open workspace' }).getAttribute('href')).toBe(
      '/dashboard/spaces/ws1/folders',
    );
    const leave = within(notice).getByRole('button', { name: 'Leave Atrium Security Team' });
    await vi.waitFor(() => expect((leave as HTMLButtonElement).disabled).toBe(false));
    await userEvent.click(leave);
    expect(await within(notice).findByText('You left this workspace.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/workspaces/ws1/members/alice']);
  });

  it('offers Accept and Decline on an invitation', async () => {
    const calls = stubFetch(
      server((url, init) =>
        init?.method === 'POST' && url === '/api/workspaces/ws2/membership/accept'
          ? {
              status: 200,
              body: { id: 'ws2', name: 'Plans', role: 'viewer', rootFolderId: 'r', createdAt: '', memberCount: 2 },
            }
          : undefined,
      ),
    );
    renderAt('/dashboard/notifications', <NotificationsPage />);
    const notice = await findItem(invited.message);
    expect(within(notice).getByRole('button', { name: 'Decline the invitation to Plans' })).toBeTruthy();
    expect(within(notice).queryByRole('button', { name: /^Leave/ })).toBeNull();
    await userEvent.click(within(notice).getByRole('button', { name: 'Accept the invitation to Plans' }));
    expect(await within(notice).findByText('You joined this workspace.')).toBeTruthy();
    expect(within(notice).getByRole('link', { name: 'Open workspace' })).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/workspaces/ws2/membership/accept')).toBe(true);
  });
});

describe("notifications page: the server's list", () => {
  it('shows the unread count, names unread items by their visible text, and marks one read on click', async () => {
    const calls = stubFetch(
      server((url, init) =>
        init?.method === 'POST' && url === '/public/api/notifications/5/read'
          ? ((items = items.map((n) => (n.id === '5' ? { ...n, read: true } : n))),
            { status: 200, body: { unread: 4 } })
          : undefined,
      ),
    );
    renderAt('/dashboard/notifications', <NotificationsPage />);
    expect(await screen.findByText('6 notifications, 5 unread')).toBeTruthy();
    const entry = screen.getByRole('button', { name: `Unread: ${shared.message}` });
    // The meta text is dark enough on the unread tint (WCAG AA): never the light grey of before.
    expect(within(itemOf(shared.message)).getByText('Notice').parentElement?.className).toContain('text-slate-700');
    expect(screen.getByRole('button', { name: announcement.message })).toBeTruthy();
    await userEvent.click(entry);
    expect(await screen.findByRole('button', { name: shared.message })).toBeTruthy();
    expect(await screen.findByText('6 notifications, 4 unread')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual(['/public/api/notifications/5/read']);
  });

  it('opens a shared file in the viewer and a file drop in its folder', async () => {
    stubFetch(server());
    renderAt('/dashboard/notifications', <NotificationsPage />);
    const file = within(await findItem(shared.message)).getByRole('link', { name: 'Open file' });
    expect(file.getAttribute('href')).toBe('/dashboard/notifications?file=file-9');
    expect(within(itemOf(dropped.message)).getByRole('link', { name: 'Open folder' }).getAttribute('href')).toBe(
      '/dashboard/spaces/ws1/folders/folder-3',
    );
  });

  it('marks all read and clears all on the server; Clear All is not the primary button', async () => {
    const calls = stubFetch(
      server((url, init) => {
        if (init?.method === 'POST' && url === '/public/api/notifications/read-all') {
          items = items.map((n) => ({ ...n, read: true }));
          return { status: 200, body: { unread: 0 } };
        }
        if (init?.method === 'POST' && url === '/public/api/notifications/clear') {
          items = [];
          return { status: 200, body: { unread: 0 } };
        }
        return undefined;
      }),
    );
    renderAt('/dashboard/notifications', <NotificationsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByText('6 notifications, 0 unread')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Unread: / })).toBeNull();
    const clear = screen.getByRole('button', { name: 'Clear All' });
    expect(clear.className).not.toBe(screen.getByRole('button', { name: 'Mark all as read' }).className);
    await userEvent.click(clear);
    expect(await screen.findByText('No notifications yet.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      '/public/api/notifications/read-all',
      '/public/api/notifications/clear',
    ]);
  });
});

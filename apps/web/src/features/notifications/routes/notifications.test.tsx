import type { Notification } from '@atrium/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { me, renderAt, stubFetch } from '../../../test/render';
import { notificationsStore } from '../lib/notifications-store';
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

beforeEach(() => {
  notificationsStore.clearAll();
  for (const notification of [added, spoof, announcement, invited]) notificationsStore.receive(notification);
});
afterEach(() => {
  notificationsStore.clearAll();
  vi.unstubAllGlobals();
});

const itemOf = (text: string) => screen.getByText(text).closest('li') as HTMLElement;

describe('notifications page: membership notices and workspace messages', () => {
  it('shows a workspace message with its sender and workspace, never as an announcement', async () => {
    stubFetch((url) => (url === '/api/me' ? { status: 200, body: me() } : undefined));
    renderAt('/dashboard/notifications', <NotificationsPage />);
    const message = itemOf(spoof.message);
    expect(message.dataset.type).toBe('workspace');
    expect(within(message).getByText('From Eve Example in Atrium Security Team')).toBeTruthy();
    expect(within(message).getByText('Workspace message')).toBeTruthy();
    expect(within(message).queryByText('Announcement')).toBeNull();
    expect(within(itemOf(announcement.message)).getByText('Announcement')).toBeTruthy();
    expect(within(itemOf(added.message)).getByText('Membership')).toBeTruthy();
  });

  it('offers "Open workspace" and one-click "Leave" on a notice of being added', async () => {
    const calls = stubFetch((url, init) =>
      url === '/api/me'
        ? { status: 200, body: me() }
        : init?.method === 'DELETE' && url === '/api/workspaces/ws1/members/alice'
          ? { status: 200, body: { ownerKey: 'alice', removed: true } }
          : undefined,
    );
    renderAt('/dashboard/notifications', <NotificationsPage />);
    const notice = itemOf(added.message);
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
    const calls = stubFetch((url, init) =>
      url === '/api/me'
        ? { status: 200, body: me() }
        : init?.method === 'POST' && url === '/api/workspaces/ws2/membership/accept'
          ? {
              status: 200,
              body: { id: 'ws2', name: 'Plans', role: 'viewer', rootFolderId: 'r', createdAt: '', memberCount: 2 },
            }
          : undefined,
    );
    renderAt('/dashboard/notifications', <NotificationsPage />);
    const notice = itemOf(invited.message);
    expect(within(notice).getByRole('button', { name: 'Decline the invitation to Plans' })).toBeTruthy();
    expect(within(notice).queryByRole('button', { name: /^Leave/ })).toBeNull();
    await userEvent.click(within(notice).getByRole('button', { name: 'Accept the invitation to Plans' }));
    expect(await within(notice).findByText('You joined this workspace.')).toBeTruthy();
    expect(within(notice).getByRole('link', { name: 'Open workspace' })).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/workspaces/ws2/membership/accept')).toBe(true);
  });
});

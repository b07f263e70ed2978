import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me, renderAt, stubFetch } from '../../../test/render';
import PushMessagePage from './push-message';

afterEach(() => {
  vi.unstubAllGlobals();
});

const PATH = '/dashboard/admin/push-message';

describe('push message page', () => {
  it('sends non-blank messages to everyone and shows the active subscriber count', async () => {
    const calls = stubFetch((url, init) => {
      if (url === '/api/me') return { status: 200, body: me({ isAdmin: true }) };
      if (url.endsWith('/subscribers/count'))
        return { status: 200, body: { count: 3, openStreams: 2, pushBrowsers: 1 } };
      if (url === '/public/api/notifications' && init?.method === 'POST')
        return { status: 200, body: { id: '1', message: 'Hi', timestamp: new Date().toISOString(), type: 'admin' } };
      return undefined;
    });
    renderAt(PATH, <PushMessagePage />);
    expect(await screen.findByRole('heading', { name: 'Send Push Message' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('subscriber-count').textContent).toBe('3'));
    // Both other figures, named: streams open now and browsers subscribed to push.
    expect(screen.getByText(/^Open now:/).textContent).toBe('Open now: 2');
    expect(screen.getByText('live dashboard streams: they see a message at once')).toBeTruthy();
    expect(screen.getByText(/^Push:/).textContent).toBe('Push: 1');
    expect(screen.getByText('browsers subscribed to push: they get it even when closed')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Please enter a message to send')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.type(screen.getByLabelText('Message'), 'Hi');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Notification sent')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toMatchObject({ message: 'Hi', type: 'admin', timestamp: expect.any(String) });
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('');
  });

  it('shows the server refusal for non-admin publishing and the generic failure otherwise', async () => {
    let status = 403;
    stubFetch((url, init) => {
      if (url === '/api/me') return { status: 200, body: me({ isAdmin: true }) };
      if (url.endsWith('/subscribers/count'))
        return { status: 200, body: { count: 0, openStreams: 0, pushBrowsers: 0 } };
      if (init?.method === 'POST')
        return {
          status,
          body: {
            error: {
              code: status === 403 ? 'FORBIDDEN' : 'INTERNAL',
              message: status === 403 ? 'Only admin users can publish notifications' : 'boom',
            },
          },
        };
      return undefined;
    });
    renderAt(PATH, <PushMessagePage />);
    await userEvent.type(await screen.findByLabelText('Message'), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Only admin users can publish notifications')).toBeTruthy();
    status = 500;
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Failed to publish notification')).toBeTruthy();
  });

  it('sends non-admins to /dashboard', async () => {
    stubFetch((url) => (url === '/api/me' ? { status: 200, body: me() } : undefined));
    renderAt(PATH, <PushMessagePage />);
    expect(await screen.findByRole('heading', { name: 'Dashboard home' })).toBeTruthy();
  });

  it('sends to one workspace or one person when chosen, and asks for the choice before sending', async () => {
    const calls = stubFetch((url, init) => {
      if (url === '/api/me') return { status: 200, body: me({ isAdmin: true }) };
      if (url.endsWith('/subscribers/count'))
        return { status: 200, body: { count: 0, openStreams: 0, pushBrowsers: 0 } };
      if (url === '/api/spaces')
        return {
          status: 200,
          body: [
            { kind: 'personal', id: null, name: 'Personal', rootFolderId: 'r0' },
            { kind: 'workspace', id: 'w1', name: 'Design', role: 'owner', rootFolderId: 'r1' },
          ],
        };
      if (url.startsWith('/api/users?q='))
        return {
          status: 200,
          body: [{ ownerKey: 'bob', name: 'Bob', nickname: 'bob', email: 'bob@example.test', picture: null }],
        };
      if (url === '/public/api/notifications' && init?.method === 'POST')
        return { status: 200, body: { id: '2', message: 'Hi', timestamp: new Date().toISOString(), type: 'admin' } };
      return undefined;
    });
    renderAt(PATH, <PushMessagePage />);
    await userEvent.type(await screen.findByLabelText('Message'), 'Hi');

    await userEvent.click(screen.getByRole('radio', { name: 'One person' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Choose the person to send to.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.type(screen.getByLabelText('Find a person'), 'bo');
    await userEvent.click(await screen.findByRole('button', { name: 'Bob · bob@example.test' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ message: 'Hi', userId: 'bob' });

    await userEvent.type(screen.getByLabelText('Message'), 'Hello team');
    await userEvent.click(screen.getByRole('radio', { name: 'A workspace' }));
    await userEvent.selectOptions(await screen.findByLabelText('Workspace'), 'w1');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    const last = calls.filter((c) => c.method === 'POST').at(-1)?.body as Record<string, unknown>;
    expect(last).toMatchObject({ message: 'Hello team', workspaceId: 'w1' });
    expect(last).not.toHaveProperty('userId');
  });
});

describe('push message page: sent messages', () => {
  const entry = (id: string, message: string, extra: Record<string, unknown> = {}) => ({
    id,
    message,
    publishedAt: '2026-11-24T10:00:00.000Z',
    publishedBy: { userId: 'admin', name: 'Ada Admin' },
    audience: { type: 'all', id: null, name: null },
    deliveredLive: 3,
    pushSent: 2,
    pushFailed: 1,
    ...extra,
  });

  it('lists what was sent with its audience and delivery counts, and loads more pages', async () => {
    const calls = stubFetch((url) => {
      if (url === '/api/me') return { status: 200, body: me({ isAdmin: true }) };
      if (url.endsWith('/subscribers/count'))
        return { status: 200, body: { count: 0, openStreams: 0, pushBrowsers: 0 } };
      if (url === '/api/admin/notifications')
        return {
          status: 200,
          body: {
            entries: [
              entry('9', 'Maintenance tonight'),
              entry('8', 'Team lunch', { audience: { type: 'workspace', id: 'w1', name: 'Design' } }),
            ],
            nextCursor: '8',
          },
        };
      if (url === '/api/admin/notifications?cursor=8')
        return {
          status: 200,
          body: {
            entries: [entry('7', 'Hello Bob', { audience: { type: 'user', id: 'bob', name: 'Bob' }, pushFailed: 0 })],
            nextCursor: null,
          },
        };
      return undefined;
    });
    renderAt(PATH, <PushMessagePage />);
    const list = await screen.findByRole('list', { name: 'History' });
    expect(list.textContent).toContain('Maintenance tonight');
    expect(list.textContent).toContain('To Everyone · by Ada Admin');
    expect(list.textContent).toContain('To Workspace Design');
    expect(list.textContent).toContain('Delivered live: 3');
    expect(list.textContent).toContain('Push sent: 2');
    expect(list.textContent).toContain('Push failed: 1');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Hello Bob')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'History' }).textContent).toContain('To Bob (bob)');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(calls.filter((c) => /^\/api\/admin\/notifications(\?|$)/.test(c.url))).toHaveLength(2);
  });

  it('says when nothing was sent yet', async () => {
    stubFetch((url) => {
      if (url === '/api/me') return { status: 200, body: me({ isAdmin: true }) };
      if (url.endsWith('/subscribers/count'))
        return { status: 200, body: { count: 0, openStreams: 0, pushBrowsers: 0 } };
      if (url === '/api/admin/notifications') return { status: 200, body: { entries: [], nextCursor: null } };
      return undefined;
    });
    renderAt(PATH, <PushMessagePage />);
    expect(await screen.findByText('No messages sent yet.')).toBeTruthy();
  });
});

describe('push message page: scheduling', () => {
  it('schedules a message for a chosen time, lists it pending and cancels it', async () => {
    let pending: unknown[] = [];
    const calls = stubFetch((url, init) => {
      if (url === '/api/me') return { status: 200, body: me({ isAdmin: true }) };
      if (url.endsWith('/subscribers/count'))
        return { status: 200, body: { count: 0, openStreams: 0, pushBrowsers: 0 } };
      if (url === '/api/admin/notifications') return { status: 200, body: { entries: [], nextCursor: null } };
      const item = {
        id: 's1',
        message: 'Later',
        sendAt: '2030-01-02T09:30:00.000Z',
        createdAt: '2026-11-24T10:00:00.000Z',
        createdBy: { userId: 'admin', name: 'Ada' },
        audience: { type: 'all', id: null, name: null },
        state: 'pending',
        notificationId: null,
      };
      if (url === '/api/admin/notifications/scheduled' && init?.method === 'POST') {
        pending = [item];
        return { status: 201, body: item };
      }
      if (url === '/api/admin/notifications/scheduled') return { status: 200, body: pending };
      if (url === '/api/admin/notifications/scheduled/s1' && init?.method === 'DELETE') {
        pending = [];
        return { status: 200, body: { ...item, state: 'cancelled' } };
      }
      return undefined;
    });
    renderAt(PATH, <PushMessagePage />);
    expect(await screen.findByText('No messages scheduled.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Message'), 'Later');
    await userEvent.click(screen.getByLabelText('Schedule…'));
    // No time chosen yet: asks for one, sends nothing.
    await userEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Choose when to send the message.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    const input = screen.getByLabelText('Send at') as HTMLInputElement;
    await userEvent.type(input, '2030-01-02T10:30');
    await userEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/admin/notifications/scheduled');
    expect(post?.body).toEqual({ message: 'Later', sendAt: new Date('2030-01-02T10:30').toISOString() });
    const list = await screen.findByRole('list', { name: 'Scheduled' });
    expect(list.textContent).toContain('Later');
    expect(list.textContent).toContain('Everyone');

    await userEvent.click(screen.getByRole('button', { name: /^Cancel \(due / }));
    expect(await screen.findByText('Scheduled message cancelled')).toBeTruthy();
    expect(await screen.findByText('No messages scheduled.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/admin/notifications/scheduled/s1')).toBe(true);
  });

  it("shows the server's refusal of a time in the past", async () => {
    stubFetch((url, init) => {
      if (url === '/api/me') return { status: 200, body: me({ isAdmin: true }) };
      if (url === '/api/admin/notifications/scheduled' && init?.method === 'POST')
        return {
          status: 400,
          body: { error: { code: 'BAD_REQUEST', message: 'Choose a time in the future to schedule the message.' } },
        };
      if (url === '/api/admin/notifications/scheduled') return { status: 200, body: [] };
      return undefined;
    });
    renderAt(PATH, <PushMessagePage />);
    await userEvent.type(await screen.findByLabelText('Message'), 'Too late');
    await userEvent.click(screen.getByLabelText('Schedule…'));
    await userEvent.type(screen.getByLabelText('Send at'), '2020-01-02T10:30');
    await userEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Choose a time in the future to schedule the message.')).toBeTruthy();
  });
});

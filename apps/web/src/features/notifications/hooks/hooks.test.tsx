import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notificationsStore } from '../lib/notifications-store';
import { me, renderAt, stubFetch } from '../../../test/render';
import { FIRST_LOGIN_KEY, firstLoginKey, useFirstLoginSubscription } from './use-first-login-subscription';
import { useWelcomeNotification, welcomeSeenKey } from './use-welcome-notification';

beforeEach(() => {
  window.localStorage.clear();
  notificationsStore.reload();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function Profile() {
  const { greeting } = useFirstLoginSubscription();
  return <p data-testid="greeting">{greeting ?? 'none'}</p>;
}

function Home() {
  useWelcomeNotification();
  return <p>home</p>;
}

const permission = (result: NotificationPermission) => {
  const requestPermission = vi.fn(async () => result);
  vi.stubGlobal(
    'Notification',
    Object.assign(function Notification() {}, { permission: 'default', requestPermission }),
  );
  return requestPermission;
};

describe('first login', () => {
  it('asks for permission, subscribes, sets firstLogin to false and shows the greeting for 5 s', async () => {
    const requestPermission = permission('granted');
    const calls = stubFetch((url) => {
      if (url === '/api/me') return { status: 200, body: me() };
      if (url.endsWith('/subscribe')) return { status: 200, body: { subscribed: true, userId: 'alice', push: false } };
      return undefined;
    });
    renderAt('/dashboard/profile', <Profile />);
    await waitFor(() => expect(screen.getByTestId('greeting').textContent).toContain('Welcome to Atrium, Alice'));
    expect(window.localStorage.getItem(FIRST_LOGIN_KEY)).toBe('false');
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/subscribe'))).toBe(true));
    expect(requestPermission).toHaveBeenCalled();
    expect(calls.find((c) => c.url.endsWith('/subscribe'))?.body).toEqual({ userId: 'alice' });
    await waitFor(() => expect(screen.getByTestId('greeting').textContent).toBe('none'), { timeout: 6000 });
  }, 10_000);

  it("does nothing once this browser's firstLogin:<userId> is false, and shows the permission error otherwise", async () => {
    permission('denied');
    stubFetch((url) => (url === '/api/me' ? { status: 200, body: me() } : undefined));
    window.localStorage.setItem(firstLoginKey('alice'), 'false');
    const { unmount } = renderAt('/dashboard/profile', <Profile />);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.getByTestId('greeting').textContent).toBe('none');
    unmount();

    window.localStorage.removeItem(firstLoginKey('alice'));
    renderAt('/dashboard/profile', <Profile />);
    expect(await screen.findByText('Notification permission denied')).toBeTruthy();
  });

  it('belongs to the user: a second user of the same browser gets the greeting, a greeted user never again', async () => {
    permission('granted');
    // The server's record: who has been greeted (GET /api/me firstLogin, POST /api/me/first-login).
    const greeted = new Set<string>();
    let signedIn = 'bob';
    const calls = stubFetch((url, init) => {
      const user = (ownerKey: string) => me({ ownerKey, name: ownerKey === 'bob' ? 'Bob' : 'Carol' });
      if (url === '/api/me') return { status: 200, body: { ...user(signedIn), firstLogin: !greeted.has(signedIn) } };
      if (url === '/api/me/first-login' && init?.method === 'POST') {
        greeted.add(signedIn);
        return { status: 200, body: { ...user(signedIn), firstLogin: false } };
      }
      if (url.endsWith('/subscribe')) return { status: 200, body: { subscribed: true, userId: signedIn, push: false } };
      return undefined;
    });
    const visitProfile = async (expected: string) => {
      const view = renderAt('/dashboard/profile', <Profile />);
      if (expected === 'none') {
        await act(() => new Promise((r) => setTimeout(r, 100)));
        expect(screen.getByTestId('greeting').textContent).toBe('none');
      } else {
        await waitFor(() => expect(screen.getByTestId('greeting').textContent).toContain(expected));
      }
      view.unmount();
    };

    await visitProfile('Welcome to Atrium, Bob');
    await waitFor(() => expect(greeted.has('bob')).toBe(true));
    expect(window.localStorage.getItem(FIRST_LOGIN_KEY)).toBe('false');
    expect(window.localStorage.getItem(firstLoginKey('bob'))).toBe('false');

    signedIn = 'carol'; // same browser, bob's flags still in storage
    await visitProfile('Welcome to Atrium, Carol');
    await waitFor(() => expect(greeted.has('carol')).toBe(true));
    expect(calls.filter((c) => c.url.endsWith('/subscribe')).map((c) => c.body)).toEqual([
      { userId: 'bob' },
      { userId: 'carol' },
    ]);

    signedIn = 'bob';
    await visitProfile('none');
    window.localStorage.clear(); // bob in another browser: the server still knows he was greeted
    await visitProfile('none');
    expect(calls.filter((c) => c.url.endsWith('/subscribe'))).toHaveLength(2);
  });

  it('reports a browser without notifications', async () => {
    stubFetch((url) => (url === '/api/me' ? { status: 200, body: me() } : undefined));
    renderAt('/dashboard/profile', <Profile />);
    expect(await screen.findByText('This browser does not support notifications')).toBeTruthy();
  });
});

describe('welcome notification', () => {
  it('asks the server once per user and shows what it created', async () => {
    const welcome = {
      id: '12',
      message: 'Welcome to Atrium, Alice!',
      timestamp: new Date().toISOString(),
      type: 'welcome',
    };
    const calls = stubFetch((url) => {
      if (url === '/api/me') return { status: 200, body: me() };
      if (url.endsWith('/welcome')) return { status: 200, body: { created: true, notification: welcome } };
      return undefined;
    });
    const { unmount } = renderAt('/dashboard', <Home />);
    await waitFor(() => expect(notificationsStore.getSnapshot()[0]).toMatchObject({ id: '12', read: false }));
    expect(window.localStorage.getItem(welcomeSeenKey('alice'))).toBe('true');
    unmount();
    renderAt('/dashboard', <Home />);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(calls.filter((c) => c.url.endsWith('/welcome'))).toHaveLength(1);
  });
});

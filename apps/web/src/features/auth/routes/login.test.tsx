import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ToastContainer } from 'react-toastify/unstyled';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../app/providers';
import { browserNavigation } from '../api/login';
import LoginPage from './login';

type Answer = { status: number; body: unknown };
let answers: Record<string, Answer>;
const requests: { url: string; body?: string }[] = [];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const unauthenticated = { status: 401, body: { error: { code: 'UNAUTHENTICATED', message: 'Please sign in.' } } };
const me = {
  id: 'u1',
  ownerKey: 'admin',
  name: 'Admin',
  nickname: 'admin',
  email: null,
  picture: null,
  role: 'admin',
  isAdmin: true,
  firstLogin: false,
};

beforeEach(() => {
  requests.length = 0;
  localStorage.clear();
  answers = {
    'GET /api/me': unauthenticated,
    'GET /api/auth/config': { status: 200, body: { providerName: 'Okta', oidcEnabled: true } },
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      requests.push({ url, body: init?.body as string | undefined });
      const answer = answers[`${init?.method ?? 'GET'} ${url}`];
      return answer ? json(answer.status, answer.body) : json(404, { error: { code: 'NOT_FOUND', message: 'no' } });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderLogin(entry: string | { pathname: string; state: unknown } = '/login') {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/dashboard/*', element: <h1>Dashboard page</h1> },
    ],
    { initialEntries: [entry] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
      <ToastContainer />
    </QueryClientProvider>,
  );
  return router;
}

async function submit(username: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Username'), username);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('login page', () => {
  it('names the configured provider and shows the wrong-credentials message', async () => {
    answers['POST /api/auth/login'] = {
      status: 401,
      body: { error: { code: 'INVALID_CREDENTIALS', message: 'server text' } },
    };
    renderLogin();
    expect(await screen.findByRole('button', { name: 'Continue with Okta' })).toBeTruthy();
    await submit('admin', 'wrong');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Invalid credentials. Please try again or continue with Okta',
    );
    expect(requests.find((r) => r.url === '/api/auth/login')?.body).toBe(
      JSON.stringify({ username: 'admin', password: 'wrong' }),
    );
  });

  it('shows the generic message and a Login failed toast on other errors', async () => {
    answers['POST /api/auth/login'] = { status: 500, body: { error: { code: 'INTERNAL', message: 'boom' } } };
    renderLogin();
    await submit('admin', 'x');
    expect(await screen.findByText('An error occurred during login. Please try again.')).toBeTruthy();
    expect(await screen.findByText('Login failed')).toBeTruthy();
  });

  it('signs in, writes the browser flags and returns to the page asked for', async () => {
    answers['POST /api/auth/login'] = { status: 200, body: me };
    const router = renderLogin({ pathname: '/login', state: { from: '/dashboard/file-stats' } });
    await submit('admin', 'right');
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard/file-stats');
    expect(localStorage.getItem('auth')).toBe('true');
    expect(localStorage.getItem('isAdmin')).toBe('true');
    expect(localStorage.getItem('userId')).toBe('admin');
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toEqual({ name: 'Admin', isAdmin: true });
  });

  it('sends a signed-in user to the dashboard', async () => {
    answers['GET /api/me'] = { status: 200, body: me };
    const router = renderLogin();
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('shows a redirecting message while leaving for the provider', async () => {
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined);
    renderLogin({ pathname: '/login', state: { from: '/dashboard/files' } });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Continue with Okta' }));
    expect(screen.getByRole('status').textContent).toContain('Redirecting to Okta…');
    expect(assign).toHaveBeenCalledWith('/api/auth/oidc/start?returnTo=%2Fdashboard%2Ffiles');
  });

  it('explains an unreachable provider', async () => {
    renderLogin('/login?error=oidc_unavailable');
    expect((await screen.findByRole('alert')).textContent).toContain('Could not connect to Okta. Please try again.');
  });

  it('says that a disabled account cannot sign in', async () => {
    renderLogin('/login?error=account_disabled');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Your account has been disabled. Ask an admin to enable it.',
    );
    expect(screen.queryByText('Login failed')).toBeNull();
  });

  it('explains a failed provider sign-in with the generic message and a toast', async () => {
    renderLogin('/login?error=oidc_failed');
    expect(await screen.findByText('An error occurred during login. Please try again.')).toBeTruthy();
    expect(await screen.findByText('Login failed')).toBeTruthy();
  });

  it('does not leave when the provider is switched off', async () => {
    answers['GET /api/auth/config'] = { status: 200, body: { providerName: 'Auth0', oidcEnabled: false } };
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined);
    renderLogin();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Continue with Auth0' }));
    expect(screen.getByRole('alert').textContent).toContain('Could not connect to Auth0. Please try again.');
    expect(assign).not.toHaveBeenCalled();
  });

  it('offers no "Forgot password?" without email', async () => {
    renderLogin();
    await screen.findByRole('button', { name: 'Continue with Okta' });
    expect(screen.queryByRole('button', { name: 'Forgot password?' })).toBeNull();
  });

  it('sends a reset link from "Forgot password?" when email is configured', async () => {
    answers['GET /api/auth/config'] = {
      status: 200,
      body: { providerName: 'Okta', oidcEnabled: true, mailEnabled: true },
    };
    answers['POST /api/public/password-reset'] = { status: 202, body: { ok: true } };
    renderLogin();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    await user.type(screen.getByLabelText('Your email address'), 'erin@example.test');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(
      await screen.findByText('If an account has this email address, a link to set a new password is on its way.'),
    ).toBeTruthy();
    expect(requests.find((r) => r.url === '/api/public/password-reset')?.body).toBe(
      JSON.stringify({ email: 'erin@example.test' }),
    );
  });

  it('links to /signup only while self-sign-up is open', async () => {
    answers['GET /api/public/signup'] = { status: 200, body: { open: false, domains: [] } };
    const closed = renderLogin();
    await screen.findByRole('button', { name: 'Continue with Okta' });
    expect(requests.some((r) => r.url === '/api/public/signup')).toBe(true);
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull();
    closed.dispose();
    document.body.innerHTML = '';

    answers['GET /api/public/signup'] = { status: 200, body: { open: true, domains: ['example.com'] } };
    renderLogin();
    const link = await screen.findByRole('link', { name: 'Create an account' });
    expect(link.getAttribute('href')).toBe('/signup');
  });

  it('shows a still image instead of the video for reduced motion', async () => {
    vi.stubGlobal(
      'matchMedia',
      vi.fn(() => ({ matches: true, addEventListener: vi.fn(), removeEventListener: vi.fn() })),
    );
    renderLogin();
    await screen.findByRole('button', { name: 'Continue with Okta' });
    expect(screen.getByTestId('login-poster')).toBeTruthy();
    expect(screen.queryByTestId('login-video')).toBeNull();
  });
  it("says plainly when this address is not the server's PUBLIC_URL, and does not leave for the provider", async () => {
    const here = window.location.origin;
    answers['GET /api/auth/config'] = {
      status: 200,
      body: { providerName: 'Okta', oidcEnabled: true, publicUrl: 'https://atrium.example.com' },
    };
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined);
    renderLogin();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(`This page was opened at ${here}`);
    expect(alert.textContent).toContain('only accepts sign-ins at https://atrium.example.com (its PUBLIC_URL)');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Continue with Okta' }));
    expect(assign).not.toHaveBeenCalled();
  });

  it("shows the server's explanation when it refuses the address (403 PUBLIC_URL_MISMATCH)", async () => {
    answers['POST /api/auth/login'] = {
      status: 403,
      body: { error: { code: 'PUBLIC_URL_MISMATCH', message: 'Opened at A, but PUBLIC_URL is B.' } },
    };
    renderLogin();
    await submit('admin', 'right');
    expect((await screen.findByRole('alert')).textContent).toBe('Opened at A, but PUBLIC_URL is B.');
  });

  it('raises no warning when the server accepts this address', async () => {
    answers['GET /api/auth/config'] = {
      status: 200,
      body: { providerName: 'Okta', oidcEnabled: true, publicUrl: window.location.origin },
    };
    renderLogin();
    await screen.findByRole('button', { name: 'Continue with Okta' });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('why the last session ended (docs/PRODUCT.md#session-end-reasons)', () => {
  it.each([
    ['signed_out', 'You were signed out on another device or by an admin. Please sign in again.'],
    ['expired', 'Your session expired. Please sign in again.'],
    ['disabled', 'Your account has been disabled. Ask an admin to enable it.'],
    ['missing', 'Please sign in to continue.'],
  ])('says it for %s', async (reason, sentence) => {
    renderLogin(`/login?reason=${reason}`);
    expect((await screen.findByRole('alert')).textContent).toBe(sentence);
  });

  it('says nothing for a reason it does not know', async () => {
    renderLogin('/login?reason=because');
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

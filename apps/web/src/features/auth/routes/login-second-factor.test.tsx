import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../app/providers';
import LoginPage from './login';

// The sign-in page's second step (docs/PRODUCT.md#second-factors), against a stubbed server.
type Answer = { status: number; body: unknown };
let answers: Record<string, Answer[]>;
const requests: { url: string; body?: string }[] = [];
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
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
const wrongCode = {
  status: 400,
  body: {
    error: { code: 'INVALID_CODE', message: 'That code is not right. Check your authenticator app and try again.' },
  },
};

beforeEach(() => {
  requests.length = 0;
  answers = {
    'GET /api/me': [{ status: 401, body: { error: { code: 'UNAUTHENTICATED', message: 'Please sign in.' } } }],
    'GET /api/auth/config': [{ status: 200, body: { providerName: 'Okta', oidcEnabled: true } }],
    'POST /api/auth/login': [
      { status: 401, body: { error: { code: 'SECOND_FACTOR_REQUIRED', message: 'Enter the code.' } } },
    ],
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      requests.push({ url, body: init?.body as string | undefined });
      const queue = answers[`${init?.method ?? 'GET'} ${url}`] ?? [];
      const answer = queue.length > 1 ? queue.shift() : queue[0];
      return answer ? json(answer.status, answer.body) : json(404, { error: { code: 'NOT_FOUND', message: 'no' } });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function passwordStep() {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/dashboard/*', element: <h1>Dashboard page</h1> },
    ],
    { initialEntries: ['/login'] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Username'), 'admin');
  await user.type(screen.getByLabelText('Password'), 'secret password');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  return { user, router };
}

describe('the sign-in page’s second step', () => {
  it('asks for the code after the password, says when it is wrong, and signs in with the right one', async () => {
    answers['POST /api/auth/login/totp'] = [wrongCode, { status: 200, body: me }];
    const { user, router } = await passwordStep();
    expect(await screen.findByRole('heading', { name: 'Two-step verification' })).toBeTruthy();
    const field = screen.getByLabelText('Authentication code');
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(field.getAttribute('inputmode')).toBe('numeric');
    expect(document.activeElement).toBe(field);
    await user.type(field, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That code is not right. Check your authenticator app and try again.',
    );
    await user.type(screen.getByLabelText('Authentication code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(requests.filter((r) => r.url === '/api/auth/login/totp').map((r) => JSON.parse(r.body ?? '{}'))).toEqual([
      { code: '123456' },
      { code: '654321' },
    ]);
  });

  it('takes a recovery code instead, and starts over back to the password', async () => {
    answers['POST /api/auth/login/totp'] = [{ status: 200, body: me }];
    const { user } = await passwordStep();
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByLabelText('Recovery code');
    expect(field.getAttribute('autocomplete')).toBe('off');
    await user.click(screen.getByRole('button', { name: 'Use the authenticator app' }));
    expect(screen.getByLabelText('Authentication code')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Start over' }));
    expect((await screen.findByLabelText<HTMLInputElement>('Password')).value).toBe('');
    expect(screen.getByRole('button', { name: 'Sign in with a passkey' })).toBeTruthy();
  });
});

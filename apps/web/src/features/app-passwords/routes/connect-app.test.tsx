import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../../test/render';
import ConnectAppRoute from './connect-app';

afterEach(() => vi.unstubAllGlobals());

const renderFlow = (token: string) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[`/dashboard/connect-app/${token}`]}>
        <Routes>
          <Route path="/dashboard/connect-app/:token" element={<ConnectAppRoute />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('Connect an app (Login Flow v2)', () => {
  it('names the client and grants it access', async () => {
    const calls = stubFetch((url, init) => {
      if (url === '/api/login-flow/t1' && (init?.method ?? 'GET') === 'GET')
        return { status: 200, body: { clientName: 'mirall/3.7.3 (Nextcloud)' } };
      if (url === '/api/login-flow/t1/grant' && init?.method === 'POST')
        return { status: 200, body: { clientName: 'mirall/3.7.3 (Nextcloud)', granted: true } };
      if (url === '/api/me/app-passwords') return { status: 200, body: [] };
      return undefined;
    });
    renderFlow('t1');
    expect(await screen.findByText('mirall/3.7.3 (Nextcloud)')).toBeTruthy();
    expect(screen.getByText(/^Grant access to/).textContent).toBe('Grant access to mirall/3.7.3 (Nextcloud)');
    await userEvent.click(screen.getByRole('button', { name: 'Grant access' }));
    expect(await screen.findByText('Access granted. You can close this window and go back to the app.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/login-flow/t1/grant')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Grant access' })).toBeNull();
  });

  it('says when the request expired or was used, with no button', async () => {
    stubFetch((url) =>
      url === '/api/login-flow/gone'
        ? {
            status: 404,
            body: {
              error: {
                code: 'NOT_FOUND',
                message: 'This sign-in request has expired or was already used. Start again in the app.',
              },
            },
          }
        : undefined,
    );
    renderFlow('gone');
    expect(
      await screen.findByText('This sign-in request has expired or was already used. Start again in the app.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Grant access' })).toBeNull();
  });
});

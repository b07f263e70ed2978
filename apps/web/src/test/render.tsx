import type { MeResponse } from '@atrium/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ToastContainer } from 'react-toastify/unstyled';
import { vi } from 'vitest';

type Answer = { status: number; body: unknown; headers?: Record<string, string> };
type Handler = (url: string, init: RequestInit | undefined) => Answer | undefined;

/** Answers fetch calls from `handler` (the server's JSON and headers), recording every request. */
export function stubFetch(handler: Handler) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({
        url,
        method: init?.method ?? 'GET',
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      });
      const answer = handler(url, init) ?? { status: 404, body: { error: { code: 'NOT_FOUND', message: 'nope' } } };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json', ...answer.headers },
      });
    }),
  );
  return calls;
}

/** The signed-in user as `GET /api/me` answers (Alice, an ordinary user, unless overridden). */
export const me = (
  overrides: Partial<{
    isAdmin: boolean;
    name: string;
    ownerKey: string;
    firstLogin: boolean;
    email: string | null;
  }> = {},
): MeResponse => ({
  id: `id-${overrides.ownerKey ?? 'alice'}`,
  ownerKey: overrides.ownerKey ?? 'alice',
  name: overrides.name ?? 'Alice',
  nickname: overrides.ownerKey ?? 'alice',
  email: overrides.email === undefined ? 'alice@example.test' : overrides.email,
  firstLogin: overrides.firstLogin ?? true,
  picture: null,
  role: overrides.isAdmin ? 'admin' : 'user',
  isAdmin: overrides.isAdmin ?? false,
});

export const adminMe = me({ ownerKey: 'admin', name: 'Admin', isAdmin: true, email: null, firstLogin: false });

/** Renders `element` at `path` with a query client, a router (and `/dashboard`) and the toast container. */
export function renderAt(path: string, element: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={path} element={element} />
          <Route path="/dashboard" element={<h1>Dashboard home</h1>} />
        </Routes>
      </MemoryRouter>
      <ToastContainer />
    </QueryClientProvider>,
  );
}

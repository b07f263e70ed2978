import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ToastContainer } from 'react-toastify/unstyled';
import { vi } from 'vitest';

type Handler = (url: string, init: RequestInit | undefined) => { status: number; body: unknown } | undefined;

/** Answers fetch calls from `handler` (the server's JSON), recording every request. */
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
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

export const me = (
  overrides: Partial<{ isAdmin: boolean; name: string; ownerKey: string; firstLogin: boolean }> = {},
) => ({
  id: `id-${overrides.ownerKey ?? 'alice'}`,
  ownerKey: overrides.ownerKey ?? 'alice',
  name: overrides.name ?? 'Alice',
  nickname: overrides.ownerKey ?? 'alice',
  email: 'alice@example.test',
  firstLogin: overrides.firstLogin ?? true,
  picture: null,
  role: overrides.isAdmin ? 'admin' : 'user',
  isAdmin: overrides.isAdmin ?? false,
});

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

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

export const adminMe = {
  id: 'id-admin',
  ownerKey: 'admin',
  name: 'Admin',
  nickname: 'admin',
  email: null,
  firstLogin: false,
  picture: null,
  role: 'admin',
  isAdmin: true,
};

export function renderAt(path: string, element: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={path} element={element} />
        </Routes>
      </MemoryRouter>
      <ToastContainer />
    </QueryClientProvider>,
  );
}

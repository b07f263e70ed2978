import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { vi } from 'vitest';

/** A JSON answer for a stubbed fetch. */
export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

/**
 * Stubs fetch with a table of `"METHOD /path?query"` → answer (a function gets the call); records every call.
 * Anything not in the table answers 404 ROUTE_NOT_FOUND, as the server does.
 */
export function stubApi(table: Record<string, (call: Call) => Response>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const call = { method, url: input, body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body };
      calls.push(call);
      const handler = table[`${method} ${input}`];
      return handler
        ? handler(call)
        : json(404, { error: { code: 'ROUTE_NOT_FOUND', message: `There is no API route ${method} ${input}.` } });
    }),
  );
  return calls;
}

/** Renders with a fresh query client (no retries) and a router at `path` (matching `pattern`). */
export function renderAt(element: ReactNode, path = '/', pattern = '*') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={pattern} element={element} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

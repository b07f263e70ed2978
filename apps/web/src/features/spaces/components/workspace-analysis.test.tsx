import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { WorkspaceAnalysis } from './workspace-analysis';

const wrap = (children: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      {children}
    </QueryClientProvider>,
  );
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('WorkspaceAnalysis', () => {
  it('shows the setting and saves a change with PUT', async () => {
    const calls: { method: string; url: string; body?: unknown }[] = [];
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
      calls.push({ method: init?.method ?? 'GET', url: String(input), body });
      return json(200, body ?? { analysis: 'on' });
    });
    wrap(<WorkspaceAnalysis workspaceId="w1" />);
    await waitFor(() => expect(screen.getByRole('radio', { name: 'On' })).toHaveProperty('checked', true));
    await userEvent.click(screen.getByRole('radio', { name: 'Off' }));
    expect(await screen.findByText('Analysis setting saved.')).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Off' })).toHaveProperty('checked', true);
    expect(calls.at(-1)).toEqual({ method: 'PUT', url: '/api/workspaces/w1/analysis', body: { analysis: 'off' } });
  });

  it('says when the server refuses', async () => {
    vi.stubGlobal('fetch', async (_input: string, init?: RequestInit) =>
      init?.method === 'PUT'
        ? json(403, { error: { code: 'FORBIDDEN', message: 'Only owners can change this.', requestId: 'r' } })
        : json(200, { analysis: 'on' }),
    );
    wrap(<WorkspaceAnalysis workspaceId="w2" />);
    await userEvent.click(await screen.findByRole('radio', { name: 'On, without faces' }));
    expect(await screen.findByText('Only owners can change this.')).toBeTruthy();
  });
});

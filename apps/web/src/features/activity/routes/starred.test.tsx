import type { StarredList } from '@atrium/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import StarredPage from './starred';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const starredList = (): StarredList => ({
  items: [
    {
      kind: 'folder',
      id: 'd1',
      name: 'Clients',
      contentType: null,
      size: null,
      updatedAt: '2026-11-27T10:00:00.000Z',
      place: { spaceKind: 'shared', spaceId: null, spaceName: 'Shared with me', folderId: 'd1' },
      starred: true,
      starredAt: '2026-11-27T11:00:00.000Z',
    },
  ],
});

let requests: string[] = [];

afterEach(() => vi.unstubAllGlobals());

describe('StarredPage', () => {
  it('lists starred items and removes one when its star is pressed', async () => {
    let current = starredList();
    requests = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        const method = init.method ?? 'GET';
        requests.push(`${method} ${url}`);
        if (url === '/api/starred') return json(200, current);
        if (url === '/api/stars/folder/d1' && method === 'DELETE') {
          current = { items: [] };
          return json(200, { kind: 'folder', id: 'd1', starred: false });
        }
        return json(404, { error: { code: 'NOT_FOUND', message: 'Not found.' } });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <StarredPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const list = await screen.findByRole('list', { name: 'Starred' });
    expect(within(list).getByRole('link', { name: 'Clients' }).getAttribute('href')).toBe(
      '/dashboard/spaces/personal/folders/d1',
    );
    const star = within(list).getByRole('button', { name: 'Star Clients' });
    expect(star.getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(star);
    expect(await screen.findByText('Nothing is starred yet.')).toBeTruthy();
    expect(requests).toContain('DELETE /api/stars/folder/d1');
  });
});

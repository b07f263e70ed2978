import type { HomeSummary, MeResponse } from '@atrium/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DashboardHome } from './dashboard-home';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ME: MeResponse = {
  id: 'u-bob',
  ownerKey: 'bob',
  name: 'Bob Editor',
  nickname: null,
  email: null,
  picture: null,
  role: 'user',
  isAdmin: false,
  firstLogin: false,
};

/** Bob has no personal files but edits twelve in Design, and Carol shared a folder with him. */
const HOME: HomeSummary = {
  counts: { files: 12, bytes: 2048, workspaces: 1, sharedWithMe: 1, starred: 0 },
  recent: [
    {
      kind: 'file',
      id: 'f1',
      name: 'brief.txt',
      contentType: 'text/plain',
      size: 9,
      updatedAt: '2026-11-27T10:00:00.000Z',
      place: { spaceKind: 'workspace', spaceId: 'w1', spaceName: 'Design', folderId: 'd1' },
      starred: false,
    },
  ],
  workspaces: [{ id: 'w1', name: 'Design', role: 'editor', rootFolderId: 'r1', usedBytes: 2048, files: 12 }],
  sharedLately: [
    {
      kind: 'folder',
      id: 'd9',
      name: 'Clients',
      role: 'viewer',
      sharedBy: 'Carol Diaz',
      sharedAt: '2026-11-26T10:00:00.000Z',
      folderId: 'd9',
    },
  ],
};

function serve(home: HomeSummary) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/me') return json(200, ME);
      if (url === '/api/home') return json(200, home);
      if (url === '/api/starred') return json(200, { items: [] });
      if (url === '/readyz') return json(200, { status: 'ok', checks: {} });
      return json(404, { error: { code: 'NOT_FOUND', message: 'Not found.' } });
    }),
  );
}

function renderHome() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <DashboardHome unreadCount={2} now={new Date(2026, 10, 27, 9)} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('DashboardHome', () => {
  it('counts every file a person reaches, and lists recent files, workspaces and what was shared lately', async () => {
    serve(HOME);
    renderHome();
    expect(await screen.findByRole('heading', { level: 1, name: 'Good Morning, Bob Editor' })).toBeTruthy();
    expect(await screen.findByText('12 files')).toBeTruthy();
    expect(screen.getByText('2.00 KB you can reach in your space and 1 workspace')).toBeTruthy();
    expect(screen.getByText('2 unread')).toBeTruthy();

    const recent = screen.getByRole('list', { name: 'Recent files' });
    expect(within(recent).getByRole('link', { name: 'brief.txt' }).getAttribute('href')).toBe('/?file=f1');
    expect(within(recent).getByRole('link', { name: 'Go to folder: brief.txt' }).getAttribute('href')).toBe(
      '/dashboard/spaces/w1/folders/d1',
    );
    const workspaces = screen.getByRole('list', { name: 'Your workspaces' });
    expect(within(workspaces).getByRole('link', { name: 'Design' }).getAttribute('href')).toBe(
      '/dashboard/spaces/w1/folders',
    );
    expect(within(workspaces).getByText('12 files · 2.00 KB used')).toBeTruthy();
    const shared = screen.getByRole('list', { name: 'Shared with me lately' });
    expect(within(shared).getByRole('link', { name: 'Clients' }).getAttribute('href')).toBe(
      '/dashboard/spaces/personal/folders/d9',
    );
    expect(within(shared).getByText('Carol Diaz · can view')).toBeTruthy();
  });

  it('says so when there is nothing yet', async () => {
    serve({
      counts: { files: 0, bytes: 0, workspaces: 0, sharedWithMe: 0, starred: 0 },
      recent: [],
      workspaces: [],
      sharedLately: [],
    });
    renderHome();
    expect(await screen.findByText('0 files')).toBeTruthy();
    expect(screen.getByText('No files yet. Upload one in Files, or ask your team to share one with you.')).toBeTruthy();
    expect(screen.getByText('You are not in a workspace yet.')).toBeTruthy();
    expect(screen.getByText('Nothing has been shared with you yet.')).toBeTruthy();
  });
});

import type { TrashItem, TrashList } from '@atrium/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import TrashPage from './trash';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const item = (over: Partial<TrashItem>): TrashItem => ({
  id: 'f1',
  kind: 'file',
  name: 'notes.txt',
  size: 1536,
  contentType: 'text/plain',
  fileCount: 1,
  workspaceId: null,
  workspaceName: null,
  trashedAt: '2026-11-24T10:00:00.000Z',
  trashedBy: { id: 'u1', name: 'Alice' },
  purgeAt: '2026-12-24T10:00:00.000Z',
  ...over,
});

let requests: { method: string; url: string }[] = [];

function serve(trash: TrashList) {
  requests = [];
  let current = trash;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      requests.push({ method, url });
      if (url === '/api/trash' && method === 'GET') return json(200, current);
      const restore = /^\/api\/trash\/([^/]+)\/restore$/.exec(url);
      if (restore && method === 'POST') {
        const found = current.items.find((i) => i.id === restore[1]);
        current = { ...current, items: current.items.filter((i) => i.id !== restore[1]) };
        return json(200, { id: restore[1], kind: found?.kind, name: found?.name, folderId: 'root', toRoot: false });
      }
      if (url.startsWith('/api/trash') && method === 'DELETE') {
        const id = /^\/api\/trash\/([^/?]+)$/.exec(url)?.[1];
        const purged = current.items.length;
        current = { ...current, items: id ? current.items.filter((i) => i.id !== id) : [] };
        return json(200, id ? { id, purged: true } : { purged });
      }
      return json(404, { error: { code: 'NOT_FOUND', message: 'Not found.' } });
    }),
  );
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <TrashPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Trash page', () => {
  it('says the trash is empty when it is', async () => {
    serve({ items: [], retentionDays: 30 });
    renderPage();
    expect(await screen.findByText('The trash is empty.')).toBeTruthy();
    expect(screen.getByText(/stay here for 30 days/)).toBeTruthy();
  });

  it('groups items by space with who deleted them and when they go; Restore and Delete forever (asked first)', async () => {
    serve({
      items: [
        item({}),
        item({
          id: 'd1',
          kind: 'folder',
          name: 'Specs',
          size: 2048,
          contentType: null,
          fileCount: 3,
          workspaceId: 'w1',
          workspaceName: 'Design',
          trashedBy: { id: 'u2', name: 'Bob' },
        }),
      ],
      retentionDays: 30,
    });
    renderPage();
    const personal = await screen.findByRole('list', { name: 'Trash of Personal' });
    expect(personal.textContent).toContain('notes.txt');
    expect(personal.textContent).toContain('Deleted by Alice');
    expect(personal.textContent).toContain('Deleted for good on');
    const design = screen.getByRole('list', { name: 'Trash of Design' });
    expect(design.textContent).toContain('Folder · 3 files · 2.00 KB');
    expect(design.textContent).toContain('Deleted by Bob');

    await userEvent.click(within(personal).getByRole('button', { name: 'Restore notes.txt' }));
    expect(requests).toContainEqual({ method: 'POST', url: '/api/trash/f1/restore' });
    // Restored: it leaves the trash (the list reloads).
    await vi.waitFor(() => expect(screen.queryByText('notes.txt')).toBeNull());

    await userEvent.click(within(design).getByRole('button', { name: 'Delete Specs forever' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete forever?' });
    expect(confirm.textContent).toContain('“Specs” and everything inside it will be deleted for good.');
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete forever' }));
    expect(requests).toContainEqual({ method: 'DELETE', url: '/api/trash/d1' });
    expect(await screen.findByText('The trash is empty.')).toBeTruthy();
  });

  it('empties one space’s trash after asking', async () => {
    serve({ items: [item({ workspaceId: 'w1', workspaceName: 'Design' })], retentionDays: 7 });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Empty the trash of Design' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Empty the trash of Design?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Empty trash' }));
    expect(requests).toContainEqual({ method: 'DELETE', url: '/api/trash?workspaceId=w1' });
    expect(await screen.findByText('The trash is empty.')).toBeTruthy();
  });
});

import type { ActivityEntry, ActivityPage } from '@atrium/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ActivityFeed } from './activity-feed';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const BOB = { id: 'u-bob', name: 'Bob Editor' };
const ALICE = { id: 'u-alice', name: 'Alice Owner' };

const entry = (over: Partial<ActivityEntry>): ActivityEntry => ({
  id: 'a1',
  at: '2026-11-27T10:00:00.000Z',
  action: 'file.uploaded',
  type: 'uploaded',
  actor: BOB,
  item: { kind: 'file', id: 'f1', name: 'brief.txt', folderId: 'd1', trashed: false },
  details: null,
  ...over,
});

let urls: string[] = [];

/** Serves the workspace feed: page 1 then page 2 by cursor; `actor=` keeps Alice's entries only. */
function serve() {
  urls = [];
  const all = [
    entry({ id: 'a3', action: 'file.renamed', type: 'renamed', details: { from: 'old.txt', to: 'brief.txt' } }),
    entry({
      id: 'a2',
      actor: ALICE,
      item: { kind: 'file', id: 'f2', name: 'plan.pdf', folderId: 'd1', trashed: false },
    }),
    entry({ id: 'a1', actor: null, item: { kind: 'file', id: 'f3', name: 'drop.png', folderId: 'd1', trashed: true } }),
  ];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(url);
      const query = new URL(url, 'http://test').searchParams;
      const entries = query.get('actor') === ALICE.id ? all.filter((e) => e.actor?.id === ALICE.id) : all;
      const page: ActivityPage = query.get('cursor')
        ? { entries: entries.slice(2), nextCursor: null, people: [ALICE, BOB] }
        : { entries: entries.slice(0, 2), nextCursor: entries.length > 2 ? 'next' : null, people: [ALICE, BOB] };
      return json(200, page);
    }),
  );
}

function renderFeed() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <ActivityFeed scope={{ kind: 'workspace', id: 'w1' }} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('ActivityFeed', () => {
  it('says who did what, by name, pages with Load more, and filters by person', async () => {
    serve();
    renderFeed();
    const list = await screen.findByRole('list', { name: 'Activity' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('p')?.textContent),
    ).toEqual(['Bob Editor renamed old.txt to brief.txt', 'Alice Owner uploaded plan.pdf']);

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(
      await within(list).findByText(
        (_, node) =>
          node?.tagName === 'P' &&
          node.textContent === 'Someone with a file-drop link uploaded drop.png (now in the trash)',
      ),
    ).toBeTruthy();

    await userEvent.selectOptions(screen.getByLabelText('Person'), 'Alice Owner');
    await screen.findByText((_, node) => node?.tagName === 'P' && node.textContent === 'Alice Owner uploaded plan.pdf');
    expect(screen.queryByText(/Bob Editor renamed/)).toBeNull();
    expect(urls.at(-1)).toBe(`/api/workspaces/w1/activity?limit=30&actor=${ALICE.id}`);
  });

  it('filters by type and says when nothing matches', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        return json(200, { entries: [], nextCursor: null, people: [] });
      }),
    );
    renderFeed();
    expect(await screen.findByText('No activity yet.')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'Sharing');
    expect(await screen.findByText('Nothing matches these filters.')).toBeTruthy();
    expect(urls.at(-1)).toBe('/api/workspaces/w1/activity?limit=30&type=shared');
  });
});

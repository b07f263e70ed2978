import type { SearchResponse, SearchResult } from '@atrium/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { searchResult } from '../../../test/search-results';
import SearchPage from '../routes/search-page';
import { SearchBox } from './search-box';

afterEach(() => vi.unstubAllGlobals());

/** The results here are PDFs unless said otherwise. */
const result = (over: Partial<SearchResult> & Pick<SearchResult, 'id' | 'name'>): SearchResult =>
  searchResult({ mimeType: 'application/pdf', ...over });

const RESULTS: SearchResult[] = [
  result({ id: 'a', name: 'report.pdf', highlights: [{ start: 0, end: 3 }] }),
  result({
    id: 'b',
    name: 'scan.png',
    matchedIn: 'content',
    snippet: '…total of the report is 420 EUR…',
    highlights: [{ start: 14, end: 17 }],
    mimeType: 'image/png',
    location: {
      spaceKind: 'workspace',
      spaceId: 'w1',
      spaceName: 'Design',
      folderId: 'f-w',
      path: [
        { id: 'wroot', name: 'Design' },
        { id: 'f-w', name: 'Scans' },
      ],
    },
  }),
];

/** Stubs GET /api/search: every search answers RESULTS for `rep…`, nothing otherwise; records the URLs. */
function stubSearch() {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      urls.push(input);
      const q = new URL(input, 'http://x').searchParams.get('q') ?? '';
      const body: SearchResponse = { items: q.startsWith('rep') ? RESULTS : [], nextCursor: null };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return urls;
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function renderBox(path = '/dashboard/spaces/personal/folders') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <SearchBox />
        <Routes>
          <Route path="/dashboard/search" element={<SearchPage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('SearchBox', () => {
  it('searches as you type (debounced), shows matches with snippet and location, opens with the keyboard', async () => {
    const urls = stubSearch();
    renderBox();
    const box = screen.getByRole('combobox', { name: 'Search files and folders' });
    await userEvent.type(box, 'rep');
    const list = await screen.findByRole('listbox', { name: 'Search results' });
    const options = await within(list).findAllByRole('option');
    expect(options).toHaveLength(2);
    // One request for the settled text, not one per key.
    expect(urls.filter((url) => url.startsWith('/api/search'))).toEqual(['/api/search?q=rep&limit=8']);
    expect(options[0]?.textContent).toContain('report.pdf');
    expect(options[0]?.querySelector('mark')?.textContent).toBe('rep');
    expect(options[0]?.textContent).toContain('Personal › Reports');
    expect(options[1]?.textContent).toContain('…total of the report is 420 EUR…');
    expect(options[1]?.textContent).toContain('Design › Scans');

    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1]?.id);
    expect(options[1]?.getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{Enter}');
    expect(screen.getByTestId('where')?.textContent).toContain('/dashboard/spaces/w1/folders/f-w');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('says when nothing matches; Escape closes; Enter without a choice opens the search page', async () => {
    stubSearch();
    renderBox();
    const box = screen.getByRole('combobox', { name: 'Search files and folders' });
    await userEvent.type(box, 'zebra');
    expect(await screen.findByText('No files or folders match “zebra”.')).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    await userEvent.clear(box);
    await userEvent.type(box, 'rep{Enter}');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Search' })).toBeTruthy());
    // The page opens each file in the viewer over the results, with Go to folder beside it.
    const links = await screen.findAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/dashboard/search?q=rep&file=a',
      '/dashboard/spaces/personal/folders/f-reports?select=a',
      '/dashboard/search?q=rep&file=b',
      '/dashboard/spaces/w1/folders/f-w?select=b',
    ]);
    expect(screen.getByRole('link', { name: 'Go to folder of report.pdf' })).toBeTruthy();
  });
});

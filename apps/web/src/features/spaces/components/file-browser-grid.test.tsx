import type { UserPreferences } from '@atrium/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileRecord, folderListing, json, renderFileBrowser, stubDesktopScreen } from '../test/file-browser-fixtures';

vi.mock('../../../lib/upload', () => ({ uploadTo: vi.fn() }));

const ROOT = folderListing({
  folders: [{ id: 'd1', name: 'Drafts', createdAt: '2026-11-24', updatedAt: '2026-11-24T10:00:00.000Z' }],
  files: [
    fileRecord('f1', 'photo.jpg', 'image/jpeg'),
    fileRecord('f2', 'report.pdf', 'application/pdf'),
    fileRecord('f3', 'notes.txt', 'text/plain'),
  ],
});

let calls: { method: string; url: string; body: unknown }[] = [];
/** A stubbed server holding the user's preferences; `refusePut` makes the PUT fail. */
function serve(initial: UserPreferences, { refusePut = false } = {}) {
  let stored = initial;
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      calls.push({ method, url, body });
      if (url === '/api/me/preferences') {
        if (method === 'GET') return json(200, stored);
        if (refusePut) return json(503, { error: { code: 'SERVICE_UNAVAILABLE', message: 'Try again later.' } });
        stored = { ...stored, ...(body as Partial<UserPreferences>) };
        return json(200, stored);
      }
      return json(200, ROOT);
    }),
  );
}

beforeEach(stubDesktopScreen);
afterEach(() => vi.unstubAllGlobals());

const viewButton = (name: 'List' | 'Grid') =>
  within(screen.getByRole('group', { name: 'View' })).getByRole('button', { name });

describe('FileBrowser grid view', () => {
  it('switches from the list to the grid, saves the choice on the server, and shows thumbnails or icons', async () => {
    serve({ fileView: 'list' });
    renderFileBrowser();
    await screen.findByRole('table');
    expect(viewButton('List').getAttribute('aria-pressed')).toBe('true');
    expect(viewButton('Grid').getAttribute('aria-pressed')).toBe('false');

    await userEvent.click(viewButton('Grid'));
    const grid = await screen.findByRole('list', { name: 'Folder contents' });
    expect(screen.queryByRole('table')).toBeNull();
    expect(viewButton('Grid').getAttribute('aria-pressed')).toBe('true');
    await waitFor(() =>
      expect(calls).toContainEqual({ method: 'PUT', url: '/api/me/preferences', body: { fileView: 'grid' } }),
    );

    const cards = within(grid).getAllByTestId('grid-card');
    expect(cards.map((card) => within(card).getByRole('link').textContent)).toEqual([
      'Drafts',
      'photo.jpg',
      'report.pdf',
      'notes.txt',
    ]);
    // The image and the PDF ask the server for a thumbnail, lazily; the folder and the text file show icons.
    const pictures = within(grid).getAllByTestId('grid-thumbnail');
    expect(pictures.map((img) => img.getAttribute('src'))).toEqual([
      `/api/files/f1/thumbnail?v=${encodeURIComponent('2026-11-24T10:00:00.000Z')}`,
      `/api/files/f2/thumbnail?v=${encodeURIComponent('2026-11-24T10:00:00.000Z')}`,
    ]);
    expect(pictures.every((img) => img.getAttribute('loading') === 'lazy')).toBe(true);
    expect(within(cards[0] as HTMLElement).getByTestId('grid-icon')).toBeTruthy();
    expect(within(cards[3] as HTMLElement).getByTestId('grid-icon')).toBeTruthy();
    // A thumbnail the server cannot make (404: no engine) becomes the type's icon.
    pictures[1]?.dispatchEvent(new Event('error'));
    await waitFor(() => expect(within(cards[2] as HTMLElement).getByTestId('grid-icon')).toBeTruthy());
    // Names are truncated with the whole name as a title; each card has the size and date.
    expect(within(cards[1] as HTMLElement).getByTitle('photo.jpg')).toBeTruthy();
    expect(cards[1]?.textContent).toContain('2.00 KB');
  });

  it('opens in the grid the server remembers; checkboxes, Space, arrow keys and the row menu work on cards', async () => {
    serve({ fileView: 'grid' });
    renderFileBrowser();
    const grid = await screen.findByRole('list', { name: 'Folder contents' });
    const links = within(grid).getAllByRole('link');
    // A file opens in the file viewer over this folder (docs/PRODUCT.md#file-viewer).
    expect(links[1]?.getAttribute('href')).toMatch(/\?file=f1$/);
    expect(links[0]?.getAttribute('href')).toBe('/dashboard/spaces/w1/folders/d1');

    links[1]?.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(links[2]);
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement).toBe(links[0]);
    // Space selects the focused card (the bulk bar counts it), a checkbox click another.
    await userEvent.keyboard(' ');
    expect(screen.getByRole('checkbox', { name: 'Select Drafts' })).toHaveProperty('checked', true);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select notes.txt' }));
    expect(screen.getByRole('region', { name: 'Selected items' }).textContent).toContain('2 items selected');

    await userEvent.click(screen.getByRole('button', { name: 'Actions for report.pdf' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent?.trim()),
    ).toEqual(expect.arrayContaining(['Open', 'Download', 'Rename', 'Move', 'Delete']));
  });

  it('goes back to the list when the server refuses to save the grid', async () => {
    serve({ fileView: 'list' }, { refusePut: true });
    renderFileBrowser();
    await screen.findByRole('table');
    await userEvent.click(viewButton('Grid'));
    await waitFor(() => expect(viewButton('List').getAttribute('aria-pressed')).toBe('true'));
    expect(screen.getByRole('table')).toBeTruthy();
  });
});

import type { FileRecord } from '@atrium/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, wrap } from '../test-utils';
import FileDeletePage from '../routes/file-delete';
import { FileTable } from './file-table';

const FILE: FileRecord = {
  id: 'f1',
  fileId: 'f1',
  fileName: 'report.pdf',
  size: 1536,
  contentType: 'application/pdf',
  uploadDate: '2026-11-21T10:00:00.000Z',
};

/** A viewport of `width` px for `matchMedia('(min-width: 640px)')`. */
function viewport(width: number) {
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        matches: width >= Number(/(\d+)px/.exec(query)?.[1] ?? 0),
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('file row menu', () => {
  it('opens from the keyboard, moves with the arrows, closes on Escape with focus back on its button', async () => {
    viewport(1366);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, [FILE])),
    );
    const onDelete = vi.fn();
    wrap(<FileTable userId="alice" onDelete={onDelete} />);
    const row = await screen.findByRole('row', { name: /report\.pdf/ });
    const button = within(row).getByRole('button', { name: 'Actions for report.pdf' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');

    button.focus();
    await userEvent.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: 'Actions for report.pdf' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const [download, remove] = within(menu).getAllByRole('menuitem');
    expect(download?.textContent).toBe(' Download');
    expect(download?.getAttribute('href')).toBe('/api/files/download/f1');
    expect(document.activeElement).toBe(download);
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(remove);
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(download);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);

    await userEvent.keyboard('{ArrowUp}');
    expect(document.activeElement?.textContent).toBe(' Delete');
    await userEvent.keyboard('{Enter}');
    expect(onDelete).toHaveBeenCalledWith(FILE);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('closes on a click elsewhere', async () => {
    viewport(1366);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, [FILE])),
    );
    wrap(<FileTable userId="alice" onDelete={() => undefined} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for report.pdf' }));
    expect(screen.getByRole('menu')).toBeTruthy();
    await userEvent.click(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('shows each file as a card with name, size, date and the menu below 640 px', async () => {
    viewport(390);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, [FILE])),
    );
    wrap(<FileTable userId="alice" onDelete={() => undefined} />);
    const list = await screen.findByRole('list', { name: 'Your files' });
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(list).getByRole('listitem');
    expect(card.textContent).toContain('report.pdf');
    expect(card.textContent).toContain('1.50 KB');
    expect(card.textContent).toContain(new Date(FILE.uploadDate).toLocaleString());
    expect(within(card).getByRole('button', { name: 'Actions for report.pdf' })).toBeTruthy();
  });
});

describe('delete by id', () => {
  const renderAt = (path: string) =>
    wrap(
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/dashboard/file-delete/:fileId?" element={<FileDeletePage />} />
        </Routes>
      </MemoryRouter>,
    );

  it("says 'File not found' without a dialog for an id that does not exist", async () => {
    const fetch = vi.fn(async (_url: string) =>
      json(404, { error: { code: 'FILE_NOT_FOUND', message: 'File not found' } }),
    );
    vi.stubGlobal('fetch', fetch);
    renderAt('/dashboard/file-delete/no-such-id');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('File not found')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0]?.[0])).toBe('/api/files/no-such-id');
  });

  it('names the file, its size and date in the confirmation', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, FILE)),
    );
    renderAt('/dashboard/file-delete/f1');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this file?' });
    expect(dialog.textContent).toContain(
      `“report.pdf” (1.50 KB, uploaded ${new Date(FILE.uploadDate).toLocaleString()}) will be moved to the trash. You can restore it from Trash.`,
    );
  });
});

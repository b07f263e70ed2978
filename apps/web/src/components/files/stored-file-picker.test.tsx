import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FOLDER_CHOICES_LIMIT } from '../../lib/queries/spaces';
import { StoredFilePicker } from './stored-file-picker';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const DATE = '2026-11-20T10:00:00.000Z';

function stub(routes: Record<string, () => Response>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => routes[url.split('?')[0] ?? '']?.() ?? json(404, { error: { code: 'NOT_FOUND' } })),
  );
}
const renderPicker = (props: Parameters<typeof StoredFilePicker>[0]) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <StoredFilePicker {...props} />
    </QueryClientProvider>,
  );

afterEach(() => vi.unstubAllGlobals());

describe('StoredFilePicker', () => {
  it('chooses a workspace folder with the file browser route of that workspace; Escape closes', async () => {
    stub({
      '/api/spaces': () =>
        json(200, [{ kind: 'workspace', id: 'ws 1', name: 'Team', role: 'editor', rootFolderId: 'r' }]),
      '/api/shared-with-me': () => json(200, { files: [], folders: [] }),
      '/api/folders/r': () =>
        json(200, {
          id: 'r',
          name: '',
          parentId: null,
          workspaceId: 'ws 1',
          path: [{ id: 'r', name: '' }],
          createdAt: DATE,
          folders: [],
          files: [],
          nextCursor: 'more',
        }),
    });
    const onChoose = vi.fn();
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderPicker({ mode: 'folder', title: 'Save', confirmLabel: 'Save here', onChoose, onClose });
    await user.click(await screen.findByRole('button', { name: 'Open Team' }));
    // One page of a large folder is listed, and the picker says so.
    expect(
      await screen.findByText(`Showing the first ${FOLDER_CHOICES_LIMIT} entries of this folder, by name.`),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save here' }));
    expect(onChoose).toHaveBeenCalledWith({ id: 'r', name: 'Team', href: '/dashboard/spaces/ws%201/folders/r' });
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });

  it('says so when a place cannot be loaded, and when nothing was shared', async () => {
    stub({
      '/api/spaces': () => json(500, { error: { code: 'INTERNAL', message: 'The database is unavailable.' } }),
    });
    const user = userEvent.setup();
    const { unmount } = renderPicker({
      mode: 'file',
      title: 'Choose from files',
      accept: () => true,
      acceptLabel: 'files',
      onPick: vi.fn(),
      onClose: vi.fn(),
    });
    expect((await screen.findByRole('alert')).textContent).toBe('The database is unavailable.');
    unmount();

    stub({
      '/api/spaces': () => json(200, [{ kind: 'personal', id: null, name: 'Personal', rootFolderId: 'p' }]),
      '/api/shared-with-me': () => json(200, { files: [], folders: [] }),
    });
    renderPicker({ mode: 'folder', title: 'Save', confirmLabel: 'Save here', onChoose: vi.fn(), onClose: vi.fn() });
    await user.click(await screen.findByRole('button', { name: 'Open Shared with me' }));
    const dialog = screen.getByRole('dialog');
    expect(await within(dialog).findByText('No folders have been shared with you.')).toBeTruthy();
    // Not a folder: nothing to save into yet.
    expect(within(dialog).getByRole('button', { name: 'Save here' })).toHaveProperty('disabled', true);
    // The empty level's breadcrumb has focus; Backspace goes back to the places.
    expect(document.activeElement?.textContent).toBe('Shared with me');
    await user.keyboard('{Backspace}');
    expect(await within(dialog).findByRole('list', { name: 'Places' })).toBeTruthy();
  });
});

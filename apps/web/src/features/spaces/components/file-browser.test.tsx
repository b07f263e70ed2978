import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileRecord, folderListing, json, renderFileBrowser, stubDesktopScreen } from '../test/file-browser-fixtures';

const uploadTo = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/upload', () => ({ uploadTo }));

interface Call {
  method: string;
  url: string;
  body: unknown;
}
let calls: Call[] = [];

/** A stubbed server: `handler` answers each request, and every request is recorded in `calls`. */
function serve(handler: (call: Call) => Response) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = {
        method: init.method ?? 'GET',
        url,
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      };
      calls.push(call);
      return handler(call);
    }),
  );
}

beforeEach(stubDesktopScreen);
afterEach(() => vi.unstubAllGlobals());

const ROOT = folderListing({
  folders: [{ id: 'd1', name: 'Drafts', createdAt: '2026-11-24', updatedAt: '2026-11-24T10:00:00.000Z' }],
  files: [fileRecord('f1', 'brief.pdf')],
  nextCursor: 'c1',
});
const PAGE_2 = folderListing({ files: [fileRecord('f2', 'later.pdf')] });

const defaultHandler = (call: Call) => (call.url.includes('cursor=c1') ? json(200, PAGE_2) : json(200, ROOT));

describe('FileBrowser', () => {
  it('lists folders first with links into them, asks for the page size, and loads the next page', async () => {
    serve(defaultHandler);
    renderFileBrowser({ pageSize: 2 });
    const rows = await screen.findAllByRole('row');
    // The first cell holds the row's checkbox (bulk actions), the second its name.
    expect(rows.slice(1).map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual([
      'Drafts',
      'brief.pdf',
    ]);
    expect(screen.getByRole('link', { name: 'Drafts' }).getAttribute('href')).toBe('/dashboard/spaces/w1/folders/d1');
    // The listing is the first call about the folder (the menus' stars are read beside it).
    expect(calls.find((c) => c.url !== '/api/starred')?.url).toBe('/api/folders/root?sort=name&order=asc&limit=2');
    expect(screen.getByRole('heading', { name: 'Design team' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'later.pdf' })).toBeTruthy();
    expect(calls.at(-1)?.url).toBe('/api/folders/root?sort=name&order=asc&limit=2&cursor=c1');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('selects rows with checkboxes (Shift for a range) and downloads them as one zip', async () => {
    serve((call) =>
      call.url === '/api/files/archive'
        ? new Response('PK', {
            status: 200,
            headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="files.zip"' },
          })
        : defaultHandler(call),
    );
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:zip', revokeObjectURL: () => undefined }));
    renderFileBrowser({ pageSize: 2 });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Drafts' }));
    expect(screen.getByRole('region', { name: 'Selected items' }).textContent).toContain('1 item selected');
    await userEvent.keyboard('{Shift>}');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select brief.pdf' }));
    await userEvent.keyboard('{/Shift}');
    expect(screen.getByRole('region', { name: 'Selected items' }).textContent).toContain('2 items selected');
    expect((screen.getByRole('checkbox', { name: 'Select all' }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Download as zip' }));
    const posted = calls.find((call) => call.url === '/api/files/archive');
    expect(posted?.method).toBe('POST');
    expect(posted?.body).toEqual({ fileIds: ['f1'], folderIds: ['d1'] });
    // Move opens the folder picker for both; a folder being moved is not offered as the destination.
    await userEvent.click(screen.getByRole('button', { name: 'Move' }));
    const picker = await screen.findByRole('dialog', { name: 'Move 2 items' });
    expect(await within(picker).findByText('No folders inside.')).toBeTruthy();
    await userEvent.click(within(picker).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('region', { name: 'Selected items' })).toBeNull();
  });

  it('asks the server again when the sort or the order changes', async () => {
    serve(defaultHandler);
    renderFileBrowser();
    await screen.findByRole('link', { name: 'brief.pdf' });
    await userEvent.selectOptions(screen.getByLabelText('Sort by'), 'size');
    await userEvent.click(screen.getByRole('button', { name: /Ascending order/ }));
    // The folder's listings (the view preference is asked for once beside them).
    const listings = calls.filter((call) => call.url.startsWith('/api/folders/'));
    expect(listings.map((call) => new URL(call.url, 'http://x').searchParams.toString())).toEqual([
      'sort=name&order=asc&limit=50',
      'sort=size&order=asc&limit=50',
      'sort=size&order=desc&limit=50',
    ]);
    // The type filter goes to the server too.
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'image');
    expect(new URL(calls.at(-1)?.url ?? '', 'http://x').searchParams.get('type')).toBe('image');
  });

  it('shows breadcrumbs from the space root to the open folder', async () => {
    serve(() =>
      json(
        200,
        folderListing({
          id: 'd2',
          name: 'Final',
          path: [
            { id: 'root', name: '' },
            { id: 'd1', name: 'Drafts' },
            { id: 'd2', name: 'Final' },
          ],
        }),
      ),
    );
    renderFileBrowser({ folderId: 'd2' });
    const crumbs = within(await screen.findByRole('navigation', { name: 'Breadcrumbs' }));
    expect(crumbs.getByRole('link', { name: 'Design team' }).getAttribute('href')).toBe('/dashboard/spaces/w1/folders');
    expect(crumbs.getByRole('link', { name: 'Drafts' }).getAttribute('href')).toBe('/dashboard/spaces/w1/folders/d1');
    expect(crumbs.getByText('Final').getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('This folder is empty.')).toBeTruthy();
  });

  it('offers a viewer open and download only: no upload, new folder, rename, move, share or delete', async () => {
    serve(defaultHandler);
    renderFileBrowser({ role: 'viewer', share: () => {} });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for brief.pdf' }));
    const items = within(screen.getByRole('menu')).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent?.trim())).toEqual(['Open', 'Download', 'Versions', 'Details', 'Star']);
    // Upload and New folder are there, disabled with the reason (file-browser-roles.test.tsx).
    for (const name of ['Upload', 'New folder', 'Upload folder']) {
      expect(screen.getByRole('button', { name }).getAttribute('aria-disabled')).toBe('true');
    }
    expect(screen.queryByText(/Drop files here/)).toBeNull();
  });

  it('shows Share to editors only when a share dialog is provided, and hands it the target', async () => {
    serve(defaultHandler);
    const { unmount } = renderFileBrowser({ role: 'editor' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for brief.pdf' }));
    expect(within(screen.getByRole('menu')).queryByRole('menuitem', { name: 'Share' })).toBeNull();
    unmount();

    const share = vi.fn();
    renderFileBrowser({ role: 'editor', share });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Drafts' }));
    await userEvent.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Share' }));
    expect(share).toHaveBeenCalledTimes(1);
    expect(share).toHaveBeenLastCalledWith({ kind: 'folder', id: 'd1', name: 'Drafts' });
  });

  it("renames through PATCH, shows the server's refusal inside the dialog, and Escape closes it", async () => {
    serve((call) =>
      call.method === 'PATCH'
        ? json(409, { error: { code: 'CONFLICT', message: 'A file with that name is already here.' } })
        : defaultHandler(call),
    );
    renderFileBrowser();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for brief.pdf' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Rename' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename file' });
    const field = within(dialog).getByLabelText('New name');
    expect(document.activeElement).toBe(field);
    await userEvent.clear(field);
    await userEvent.type(field, 'final.pdf{Enter}');
    expect((await within(dialog).findByRole('alert')).textContent).toBe('A file with that name is already here.');
    expect(calls.find((call) => call.method === 'PATCH')).toEqual({
      method: 'PATCH',
      url: '/api/files/f1',
      body: { fileName: 'final.pdf' },
    });
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('creates a folder in the open folder and deletes only after confirming', async () => {
    serve((call) => {
      if (call.method === 'POST') return json(201, { ...ROOT, id: 'd9', name: 'New', parentId: 'root' });
      if (call.method === 'DELETE') return json(200, { id: 'd1', deleted: true, folders: 1, files: 0 });
      return defaultHandler(call);
    });
    renderFileBrowser();
    await userEvent.click(await screen.findByRole('button', { name: /New folder/ }));
    await userEvent.type(screen.getByLabelText('Folder name'), 'Specs{Enter}');
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // A taken name is asked about, never numbered silently (file-browser-roles.test.tsx).
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Specs',
      parentId: 'root',
      onConflict: 'fail',
    });

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Drafts' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    const confirm = screen.getByRole('alertdialog', { name: 'Delete folder?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(calls.find((call) => call.method === 'DELETE')?.url).toBe('/api/folders/d1'));
  });

  it('traps Tab inside the move dialog and moves a file into the folder picked', async () => {
    serve((call) => {
      if (call.method === 'PATCH') return json(200, fileRecord('f1', 'brief.pdf'));
      if (call.url.startsWith('/api/folders/d1')) {
        return json(
          200,
          folderListing({
            id: 'd1',
            name: 'Drafts',
            path: [
              { id: 'root', name: '' },
              { id: 'd1', name: 'Drafts' },
            ],
          }),
        );
      }
      return defaultHandler(call);
    });
    renderFileBrowser();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for brief.pdf' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Move' }));
    const dialog = screen.getByRole('dialog', { name: 'Move “brief.pdf”' });
    const here = within(dialog).getByRole('button', { name: 'Move here' });
    expect(here.hasAttribute('disabled')).toBe(true); // still the folder it is in
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Drafts' }));
    await within(dialog).findByText('Drafts', { selector: '[aria-current]' });
    const moveHere = within(dialog).getByRole('button', { name: 'Move here' });
    moveHere.focus();
    await userEvent.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    await userEvent.click(moveHere);
    await vi.waitFor(() =>
      expect(calls.find((call) => call.method === 'PATCH')).toEqual({
        method: 'PATCH',
        url: '/api/files/f1',
        body: { folderId: 'd1' },
      }),
    );
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says so when the folder does not exist or is not the caller’s to see', async () => {
    serve(() => json(404, { error: { code: 'NOT_FOUND', message: 'Folder not found.' } }));
    renderFileBrowser({ folderId: 'nope' });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This folder does not exist or you have no access to it.',
    );
  });

  it('uploads picked files into the open folder with progress per file, and a failure says why', async () => {
    serve(defaultHandler);
    let finish: (() => void) | undefined;
    uploadTo.mockImplementation(
      (picked: File, _place: unknown, options: { onProgress: (p: { loaded: number }) => void }) => {
        if (picked.name === 'big.bin') {
          options.onProgress({ loaded: 5 });
          return new Promise<void>((resolve) => {
            finish = resolve;
          });
        }
        return Promise.reject(new Error('The workspace is out of space.'));
      },
    );
    renderFileBrowser({ folderId: 'root' });
    await screen.findByRole('link', { name: 'brief.pdf' });
    await userEvent.upload(screen.getByTestId('upload-input'), [
      new File(['0123456789'], 'big.bin'),
      new File(['x'], 'nope.txt'),
    ]);
    expect(uploadTo.mock.calls.map(([picked, place]) => [(picked as File).name, place])).toEqual([
      ['big.bin', { folderId: 'root', onConflict: 'rename' }],
      ['nope.txt', { folderId: 'root', onConflict: 'rename' }],
    ]);
    const uploads = within(screen.getByRole('region', { name: 'Uploads' }));
    expect(uploads.getByRole('progressbar', { name: 'Upload of big.bin' }).getAttribute('value')).toBe('50');
    expect(await uploads.findByText('The workspace is out of space.')).toBeTruthy();
    finish?.();
    await vi.waitFor(() =>
      expect(uploads.getAllByTestId('upload-status').map((node) => node.textContent)).toEqual(['Uploaded', 'Failed']),
    );
  });

  it('asks Replace or Keep both before uploading a name the folder has, and sends the choice', async () => {
    serve(defaultHandler);
    uploadTo.mockReset();
    uploadTo.mockResolvedValue(undefined);
    renderFileBrowser({ folderId: 'root' });
    await screen.findByRole('link', { name: 'brief.pdf' });
    await userEvent.upload(screen.getByTestId('upload-input'), [new File(['new'], 'Brief.pdf')]);
    const dialog = await screen.findByRole('dialog', { name: 'Replace the existing file?' });
    expect(dialog.textContent).toContain('A file named “Brief.pdf” is already in this folder.');
    expect(uploadTo).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replace' }));
    expect(uploadTo.mock.calls.map(([picked, place]) => [(picked as File).name, place])).toEqual([
      ['Brief.pdf', { folderId: 'root', onConflict: 'replace' }],
    ]);
    await userEvent.upload(screen.getByTestId('upload-input'), [new File(['new'], 'brief.pdf')]);
    await userEvent.click(await screen.findByRole('button', { name: 'Keep both' }));
    expect(uploadTo.mock.calls.at(-1)?.[1]).toEqual({ folderId: 'root', onConflict: 'rename' });
  });

  it('asks the server which names are taken when the folder is not all loaded', async () => {
    // Page 1 holds brief.pdf; later.pdf is on page 2, which was never loaded.
    serve((call) =>
      call.url.includes('names=')
        ? json(
            200,
            folderListing({
              files: call.url.toLowerCase().includes('later.pdf') ? [fileRecord('f2', 'later.pdf')] : [],
            }),
          )
        : defaultHandler(call),
    );
    uploadTo.mockReset();
    uploadTo.mockResolvedValue(undefined);
    renderFileBrowser({ folderId: 'root' });
    await screen.findByRole('link', { name: 'brief.pdf' });

    await userEvent.upload(screen.getByTestId('upload-input'), [new File(['new'], 'LATER.pdf')]);
    const dialog = await screen.findByRole('dialog', { name: 'Replace the existing file?' });
    expect(dialog.textContent).toContain('A file named “LATER.pdf” is already in this folder.');
    expect(calls.at(-1)?.url).toBe('/api/folders/root?names=LATER.pdf&limit=200');
    expect(uploadTo).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    // A free name goes straight to the queue, as Keep both.
    await userEvent.upload(screen.getByTestId('upload-input'), [new File(['new'], 'fresh.pdf')]);
    await vi.waitFor(() => expect(uploadTo).toHaveBeenCalledTimes(1));
    expect(calls.some((call) => call.url === '/api/folders/root?names=fresh.pdf&limit=200')).toBe(true);
    expect(screen.queryByRole('dialog', { name: 'Replace the existing file?' })).toBeNull();
    expect(uploadTo.mock.calls[0]?.[1]).toEqual({ folderId: 'root', onConflict: 'rename' });
  });
});

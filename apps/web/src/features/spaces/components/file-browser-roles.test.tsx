import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastContainer } from 'react-toastify/unstyled';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileRecord, folderListing, json, renderFileBrowser, stubDesktopScreen } from '../test/file-browser-fixtures';

// Roles that explain themselves, and the quick edits: rename and move with Undo, a taken folder name asked about,
// a search result's file selected (docs/PRODUCT.md#spaces-screens).

const uploadTo = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/upload', () => ({ uploadTo }));

interface Call {
  method: string;
  url: string;
  body: unknown;
}
let calls: Call[] = [];

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

const ROOT = folderListing({
  folders: [{ id: 'd1', name: 'Drafts', createdAt: '2026-11-24', updatedAt: '2026-11-24T10:00:00.000Z' }],
  files: [fileRecord('f1', 'brief.final.pdf'), fileRecord('f2', 'notes.txt', 'text/plain')],
});
const listing = () => json(200, ROOT);
const REASON = 'You can only view this workspace. Ask one of its owners for editor access.';

beforeEach(() => {
  stubDesktopScreen();
  render(<ToastContainer />);
});
afterEach(() => vi.unstubAllGlobals());

describe('FileBrowser: roles that explain themselves', () => {
  it('shows a viewer "View only", Upload and New folder disabled with the reason, and answers a drop', async () => {
    serve(listing);
    renderFileBrowser({ role: 'viewer' });
    expect(await screen.findByText('View only')).toBeTruthy();
    const reason = screen.getByText(REASON);
    for (const name of ['Upload', 'New folder', 'Upload folder']) {
      const button = screen.getByRole('button', { name });
      expect(button.getAttribute('aria-disabled')).toBe('true');
      expect(button.getAttribute('aria-describedby')).toBe(reason.id);
    }
    // Pressed anyway: the reason as a toast, no dialog and no picker.
    await userEvent.click(screen.getByRole('button', { name: 'New folder' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByRole('alert', {}, { timeout: 2000 })).toBeTruthy();
    expect(screen.getAllByText(REASON).length).toBeGreaterThan(1);
    expect(screen.queryByTestId('upload-input')).toBeNull();

    // A file dropped by a viewer: the reason again, nothing sent.
    const file = new File(['x'], 'dropped.txt', { type: 'text/plain' });
    const browser = screen.getByTestId('file-browser');
    const dataTransfer = { types: ['Files'], files: [file], items: [] };
    fireEvent.dragOver(browser, { dataTransfer });
    expect(within(browser).getAllByText(REASON).length).toBeGreaterThan(1);
    fireEvent.drop(browser, { dataTransfer });
    await vi.waitFor(() => expect(screen.getAllByRole('alert').length).toBeGreaterThan(0));
    expect(uploadTo).not.toHaveBeenCalled();
    expect(calls.every((call) => call.method === 'GET')).toBe(true);
  });

  it('shows an editor no chip and working buttons', async () => {
    serve(listing);
    renderFileBrowser({ role: 'editor' });
    expect(await screen.findByRole('link', { name: 'notes.txt' })).toBeTruthy();
    expect(screen.queryByText('View only')).toBeNull();
    expect(screen.getByRole('button', { name: 'Upload' }).getAttribute('aria-disabled')).toBeNull();
  });
});

describe('FileBrowser: quick edits', () => {
  it('asks about a taken folder name: the message, then Keep both creates "name (1)"', async () => {
    serve((call) => {
      if (call.method !== 'POST') return listing();
      const body = call.body as { onConflict: string };
      return body.onConflict === 'fail'
        ? json(409, { error: { code: 'NAME_TAKEN', message: 'A folder named “Drafts” already exists here.' } })
        : json(201, { ...ROOT, id: 'd9', name: 'Drafts (1)', parentId: 'root' });
    });
    renderFileBrowser();
    await userEvent.click(await screen.findByRole('button', { name: 'New folder' }));
    await userEvent.type(screen.getByLabelText('Folder name'), 'Drafts{Enter}');
    const dialog = screen.getByRole('dialog', { name: 'New folder' });
    expect(
      await within(dialog).findByText(
        'A folder named “Drafts” already exists here. Choose another name, or keep both.',
      ),
    ).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep both' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
      { name: 'Drafts', parentId: 'root', onConflict: 'fail' },
      { name: 'Drafts', parentId: 'root', onConflict: 'rename' },
    ]);
    expect(await screen.findByText('Created Drafts (1).')).toBeTruthy();
  });

  it('selects the base name when renaming a file, and Undo renames it back through the same API', async () => {
    serve((call) => {
      if (call.method !== 'PATCH') return listing();
      const { fileName } = call.body as { fileName: string };
      return json(200, fileRecord('f1', fileName));
    });
    renderFileBrowser();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for brief.final.pdf' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Rename' }));
    const field = screen.getByLabelText<HTMLInputElement>('New name');
    await vi.waitFor(() => expect([field.selectionStart, field.selectionEnd]).toEqual([0, 11]));
    // Typing replaces the base name only.
    await userEvent.keyboard('summary{Enter}');
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ fileName: 'summary.pdf' });
    expect(await screen.findByText('Renamed brief.final.pdf to summary.pdf.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Undo: rename summary.pdf back to brief.final.pdf' }));
    await vi.waitFor(() =>
      expect(calls.filter((call) => call.method === 'PATCH').map((call) => [call.url, call.body])).toEqual([
        ['/api/files/f1', { fileName: 'summary.pdf' }],
        ['/api/files/f1', { fileName: 'brief.final.pdf' }],
      ]),
    );
    expect(await screen.findByText('Renamed back to brief.final.pdf.')).toBeTruthy();
  });

  it('answers a move with a toast whose Undo moves it back to the folder it came from', async () => {
    serve((call) => {
      if (call.method === 'PATCH') return json(200, fileRecord('f2', 'notes.txt'));
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
      return listing();
    });
    renderFileBrowser();
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for notes.txt' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Move' }));
    const dialog = screen.getByRole('dialog', { name: 'Move “notes.txt”' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Drafts' }));
    await within(dialog).findByText('Drafts', { selector: '[aria-current="location"]' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move here' }));
    expect(await screen.findByText('Moved notes.txt to Drafts.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Undo: move notes.txt back' }));
    await vi.waitFor(() =>
      expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
        { folderId: 'd1' },
        { folderId: 'root' },
      ]),
    );
    expect(await screen.findByText('Moved notes.txt back.')).toBeTruthy();
  });

  it('selects and scrolls to the file a search result names (?select=)', async () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    serve(listing);
    renderFileBrowser({ at: '/?select=f2' });
    const box = await screen.findByRole('checkbox', { name: 'Select notes.txt' });
    await vi.waitFor(() => expect((box as HTMLInputElement).checked).toBe(true));
    expect((screen.getByRole('checkbox', { name: 'Select brief.final.pdf' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText('1 item selected')).toBeTruthy();
    await vi.waitFor(() => expect(scrolled).toHaveBeenCalledTimes(1));
    expect(scrolled.mock.contexts[0]).toBe(box.closest('[data-entry="file:f2"]'));
  });
});

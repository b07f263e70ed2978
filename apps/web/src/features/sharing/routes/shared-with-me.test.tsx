import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderAt, stubApi } from '../test-utils';
import { ShareActionContext } from '../../../lib/share-action';
import SharedWithMePage from './shared-with-me';

afterEach(() => vi.unstubAllGlobals());

describe('Shared with me', () => {
  it('lists shared folders (opening the file browser) and files (downloading), with who shared and the role', async () => {
    stubApi({
      'GET /api/shared-with-me': () =>
        json(200, {
          folders: [
            {
              id: 'd1',
              name: 'Campaign',
              createdAt: '2026-11-01T10:00:00.000Z',
              updatedAt: '2026-11-01T10:00:00.000Z',
              role: 'editor',
              sharedBy: 'Alice Adams',
              sharedAt: '2026-11-20T10:00:00.000Z',
            },
          ],
          files: [
            {
              id: 'f1',
              fileName: 'budget.xlsx',
              size: 3072,
              contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
              uploadDate: '2026-11-01T10:00:00.000Z',
              fileId: 'f1',
              role: 'viewer',
              sharedBy: null,
              sharedAt: '2026-11-21T10:00:00.000Z',
            },
          ],
        }),
    });
    const share = vi.fn();
    renderAt(
      <ShareActionContext.Provider value={share}>
        <SharedWithMePage />
      </ShareActionContext.Provider>,
    );
    const folders = await screen.findByRole('list', { name: 'Shared folders' });
    expect(within(folders).getByRole('link', { name: 'Campaign' }).getAttribute('href')).toBe(
      '/dashboard/spaces/personal/folders/d1',
    );
    expect(within(folders).getByText(/Shared by Alice Adams/)).toBeTruthy();
    expect(within(folders).getByText('Editor')).toBeTruthy();
    const files = screen.getByRole('list', { name: 'Shared files' });
    expect(within(files).getByText('Viewer')).toBeTruthy();
    expect(within(files).getByText(/3.00 KB · Shared with you/)).toBeTruthy();
    expect(within(files).getByRole('link', { name: 'Download budget.xlsx' }).getAttribute('href')).toBe(
      '/api/files/download/f1',
    );
    // Editors may share further; viewers get no Share button.
    expect(within(files).queryByRole('button', { name: 'Share budget.xlsx' })).toBeNull();
    await userEvent.click(within(folders).getByRole('button', { name: 'Share Campaign' }));
    expect(share).toHaveBeenCalledWith({ kind: 'folder', id: 'd1', name: 'Campaign' });
  });

  it('says when nothing is shared, and shows a failure', async () => {
    stubApi({ 'GET /api/shared-with-me': () => json(200, { files: [], folders: [] }) });
    const { unmount } = renderAt(<SharedWithMePage />);
    expect(await screen.findByText('Nothing is shared with you yet.')).toBeTruthy();
    unmount();
    stubApi({
      'GET /api/shared-with-me': () => json(401, { error: { code: 'UNAUTHENTICATED', message: 'Please sign in.' } }),
    });
    renderAt(<SharedWithMePage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Please sign in.');
  });
});

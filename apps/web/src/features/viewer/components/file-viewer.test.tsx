import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { ShareActionContext } from '../../../lib/share-action';
import { rememberViewerList } from '../../../lib/viewer-list';
import { FileViewerHost } from './file-viewer-host';
import type { ViewerSlots } from './file-viewer';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const details = (id: string, name: string, contentType: string, yourRole = 'editor') => ({
  id,
  name,
  contentType,
  size: 2048,
  sha256: 'ab',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  location: {
    spaceKind: 'workspace',
    spaceId: 'w1',
    spaceName: 'Design',
    folderId: 'root',
    path: [{ id: 'root', name: 'Design' }],
  },
  versions: { count: 0, bytes: 0 },
  yourRole,
  access: null,
  links: null,
  activity: [],
});

const FILES: Record<string, ReturnType<typeof details>> = {
  a: details('a', 'a.png', 'image/png'),
  b: details('b', 'b.wav', 'audio/wav'),
};

function stub(insights: Record<string, unknown> = {}) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://x');
      const found = /^\/api\/files\/([^/]+)\/(details|insights)$/.exec(url.pathname);
      if (found?.[2] === 'details' && found[1] && FILES[found[1]]) return json(200, FILES[found[1]]);
      if (found?.[2] === 'insights')
        return json(200, insights[found[1] ?? ''] ?? { status: 'unsupported', engine: null, analysedAt: null });
      if (url.pathname === '/api/folders/root')
        return json(200, {
          id: 'root',
          name: 'Design',
          parentId: null,
          workspaceId: 'w1',
          path: [{ id: 'root', name: 'Design' }],
          createdAt: '2026-11-01T10:00:00.000Z',
          folders: [],
          files: Object.values(FILES).map((file) => ({
            id: file.id,
            fileId: file.id,
            fileName: file.name,
            size: 1,
            contentType: file.contentType,
            uploadDate: '2026-11-01T10:00:00.000Z',
          })),
          nextCursor: null,
        });
      return json(404, { error: { code: 'NOT_FOUND', message: 'Not found.' } });
    }),
  );
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function open(path: string, slots: ViewerSlots = {}, share = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ShareActionContext.Provider value={share}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route
              path="*"
              element={
                <>
                  <Where />
                  <FileViewerHost {...slots} />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </ShareActionContext.Provider>
    </QueryClientProvider>,
  );
  return share;
}

afterEach(() => {
  vi.unstubAllGlobals();
  rememberViewerList([]);
});

describe('file viewer', () => {
  it('presses the toolbar button that declares the key s, but not while typing', async () => {
    stub();
    const star = vi.fn();
    open('/dashboard/spaces/w1/folders?file=a', {
      star: ({ fileId, name }) => (
        <>
          <button type="button" aria-keyshortcuts="s" onClick={() => star(fileId)}>
            Star {name}
          </button>
          <input aria-label="Note" />
        </>
      ),
    });
    const dialog = await screen.findByRole('dialog', { name: 'a.png' });
    await userEvent.keyboard('s');
    expect(star).toHaveBeenCalledWith('a');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Note' }), 'ss');
    expect(star).toHaveBeenCalledTimes(1);
  });

  it('opens on ?file=, shows the image with its toolbar, steps through the folder, and closes', async () => {
    stub();
    const share = open('/dashboard/spaces/w1/folders?file=a', {
      versions: ({ target }) => <p>Versions of {target.name}</p>,
      details: ({ target }) => <p>Details of {target.name}</p>,
      star: ({ fileId }) => <button type="button">Star {fileId}</button>,
    });
    const dialog = await screen.findByRole('dialog', { name: 'a.png' });
    expect(within(dialog).getByRole('img', { name: 'a.png' }).getAttribute('src')).toBe(
      '/api/files/download/a?inline=1',
    );
    expect(within(dialog).getByRole('link', { name: 'Download' }).getAttribute('href')).toBe('/api/files/download/a');
    expect(within(dialog).getByRole('button', { name: 'Star a' })).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Go to folder' }).getAttribute('href')).toBe(
      '/dashboard/spaces/w1/folders/root',
    );
    expect(await within(dialog).findByText(/^1 of 2 ·/)).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(share).toHaveBeenCalledWith({ kind: 'file', id: 'a', name: 'a.png' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Versions' }));
    expect(screen.getByText('Versions of a.png')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Details' }));
    expect(screen.getByText('Details of a.png')).toBeTruthy();

    await userEvent.keyboard('{ArrowRight}');
    expect(await screen.findByRole('dialog', { name: 'b.wav' })).toBeTruthy();
    expect(screen.getByTestId('where').textContent).toBe('/dashboard/spaces/w1/folders?file=b');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('where').textContent).toBe('/dashboard/spaces/w1/folders');
    // Many steps on a shared 2-core machine.
  }, 20_000);

  it('follows the list it was opened from instead of the folder', async () => {
    stub();
    rememberViewerList([
      { id: 'x', name: 'x.txt' },
      { id: 'a', name: 'a.png' },
    ]);
    open('/dashboard/search?q=a&file=a');
    expect(await screen.findByRole('dialog', { name: 'a.png' })).toBeTruthy();
    expect(screen.getByText(/^2 of 2 ·/)).toBeTruthy();
    await userEvent.keyboard('{ArrowLeft}');
    expect(screen.getByTestId('where').textContent).toBe('/dashboard/search?q=a&file=x');
  });

  it('says a file is not available when the server does not let the reader see it', async () => {
    stub();
    open('/dashboard?file=gone');
    expect(await screen.findByText('This file is not available')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Close the viewer' }));
    expect(screen.getByTestId('where').textContent).toBe('/dashboard');
  });

  it('leaves Share out for a viewer, and seeks the player from a transcript line', async () => {
    stub({
      b: {
        status: 'done',
        engine: 'local',
        analysedAt: '2026-11-01T10:00:00.000Z',
        transcript: {
          text: 'hello there. goodbye now.',
          segments: [
            { start: 0, end: 1.5, text: 'hello there.' },
            { start: 65, end: 67, text: 'goodbye now.' },
          ],
        },
      },
    });
    FILES.b = details('b', 'b.wav', 'audio/wav', 'viewer');
    open('/dashboard?file=b');
    const dialog = await screen.findByRole('dialog', { name: 'b.wav' });
    expect(within(dialog).queryByRole('button', { name: 'Share' })).toBeNull();
    const player = dialog.querySelector('audio');
    if (!player) throw new Error('no player');
    const play = vi.spyOn(player, 'play').mockResolvedValue(undefined);
    await userEvent.click(await within(dialog).findByRole('button', { name: /1:05\s+goodbye now\./ }));
    expect(player.currentTime).toBe(65);
    expect(play).toHaveBeenCalled();
  });

  it('shows the analysis progress while it runs', async () => {
    stub({ a: { status: 'running', progress: 0.4, engine: null, analysedAt: null } });
    open('/dashboard?file=a');
    const dialog = await screen.findByRole('dialog', { name: 'a.png' });
    expect(await within(dialog).findByText('Analysing… 40%')).toBeTruthy();
    expect(within(dialog).getByRole('progressbar', { name: 'Analysis progress' })).toBeTruthy();
  });

  it('draws face boxes over an image, and hides them with the switch', async () => {
    stub({
      a: {
        status: 'done',
        engine: 'local',
        analysedAt: '2026-11-01T10:00:00.000Z',
        faces: [{ box: { left: 0.1, top: 0.1, width: 0.2, height: 0.3 }, age: 30, gender: 'female', emotion: 'happy' }],
        text: 'Lighthouse 42',
      },
    });
    open('/dashboard?file=a');
    const dialog = await screen.findByRole('dialog', { name: 'a.png' });
    expect(await within(dialog).findByTestId('face-boxes')).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: 'Text in this file' })).toHaveProperty('value', 'Lighthouse 42');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Show face boxes' }));
    expect(within(dialog).queryByTestId('face-boxes')).toBeNull();
  });
});

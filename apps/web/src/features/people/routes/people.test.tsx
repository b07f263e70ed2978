import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt, stubFetch } from '../../../test/render';
import PeoplePage from './people';

afterEach(() => vi.unstubAllGlobals());

const PATH = '/dashboard/spaces/personal/people';
const box = { left: 0.2, top: 0.1, width: 0.3, height: 0.4 };
const ana = { id: 'p1', name: 'Ana', faceCount: 2, photoCount: 2, cover: { id: 'f1', fileId: 'file1', box } };
const unnamed = { id: 'p2', name: null, faceCount: 1, photoCount: 1, cover: { id: 'f3', fileId: 'file3', box } };
const spaces = [{ kind: 'personal', id: null, name: 'Personal', rootFolderId: 'root', role: 'owner' }];

describe('People page', () => {
  it('explains People when it is off and lets the owner turn it on', async () => {
    let enabled = false;
    const calls = stubFetch((url, init) => {
      if (url === '/api/spaces') return { status: 200, body: spaces };
      if (url === '/api/spaces/personal/people/settings' && init?.method === 'PUT') {
        enabled = true;
        return { status: 200, body: { enabled: true } };
      }
      if (url === '/api/spaces/personal/people')
        return { status: 200, body: { enabled, canEdit: true, canManage: true, people: [] } };
      return undefined;
    });
    renderAt(PATH, <PeoplePage />);
    expect(
      await screen.findByRole('heading', { name: 'People is off for this space' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(screen.getByText(/face data never leaves this server/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Turn People on' }));
    expect(calls).toContainEqual({
      url: '/api/spaces/personal/people/settings',
      method: 'PUT',
      body: { enabled: true },
    });
    expect(await screen.findByText(/No people found yet/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Turn People off' })).toBeTruthy();
  });

  it('tells a member who cannot turn it on to ask an owner', async () => {
    stubFetch((url) =>
      url === '/api/spaces/personal/people'
        ? { status: 200, body: { enabled: false, canEdit: false, canManage: false, people: [] } }
        : url === '/api/spaces'
          ? { status: 200, body: spaces }
          : undefined,
    );
    renderAt(PATH, <PeoplePage />);
    expect(await screen.findByText('Ask an owner of this workspace to turn People on.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn People on' })).toBeNull();
  });

  it('shows person cards; a card opens the photos, where the person is renamed, merged and a face removed', async () => {
    const calls = stubFetch((url, init) => {
      const method = init?.method ?? 'GET';
      if (url === '/api/spaces') return { status: 200, body: spaces };
      if (url === '/api/spaces/personal/people')
        return { status: 200, body: { enabled: true, canEdit: true, canManage: true, people: [ana, unnamed] } };
      if (url === '/api/spaces/personal/people/p1' && method === 'GET')
        return {
          status: 200,
          body: {
            person: ana,
            photos: [
              {
                fileId: 'file1',
                fileName: 'beach.jpg',
                contentType: 'image/jpeg',
                faces: [{ id: 'f1', fileId: 'file1', box }],
              },
              {
                fileId: 'file2',
                fileName: 'party.jpg',
                contentType: 'image/jpeg',
                faces: [{ id: 'f2', fileId: 'file2', box }],
              },
            ],
          },
        };
      if (url === '/api/spaces/personal/people/p1' && method === 'PATCH')
        return { status: 200, body: { ...ana, name: 'Ana Lima' } };
      if (url === '/api/spaces/personal/people/p1/merge') return { status: 200, body: { ...ana, faceCount: 3 } };
      if (url === '/api/spaces/personal/people/p1/faces/f2') return { status: 200, body: { removed: true } };
      return undefined;
    });
    renderAt(PATH, <PeoplePage />);
    const grid = await screen.findByRole('list', { name: 'People' });
    expect(
      within(grid)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Ana2 photos', 'Unnamed person1 photo']);
    await userEvent.click(within(grid).getByRole('button', { name: /Ana/ }));
    expect(await screen.findByRole('img', { name: 'party.jpg' })).toBeTruthy();

    const name = screen.getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Ana Lima');
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    await waitFor(() =>
      expect(calls).toContainEqual({
        url: '/api/spaces/personal/people/p1',
        method: 'PATCH',
        body: { name: 'Ana Lima' },
      }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Merge…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Merge into Ana' });
    await userEvent.click(within(dialog).getByRole('radio', { name: /Unnamed person/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Merge' }));
    await waitFor(() =>
      expect(calls).toContainEqual({
        url: '/api/spaces/personal/people/p1/merge',
        method: 'POST',
        body: { personId: 'p2' },
      }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Not Ana: remove this face in party.jpg' }));
    await waitFor(() =>
      expect(calls.some((c) => c.url === '/api/spaces/personal/people/p1/faces/f2' && c.method === 'DELETE')).toBe(
        true,
      ),
    );
  });
  it('splits the chosen faces off into a new person, who opens next', async () => {
    const split = { id: 'p3', name: null, faceCount: 1, photoCount: 1, cover: { id: 'f2', fileId: 'file2', box } };
    let people = [ana, unnamed];
    const photo = (fileId: string, fileName: string, faceId: string) => ({
      fileId,
      fileName,
      contentType: 'image/jpeg',
      faces: [{ id: faceId, fileId, box }],
    });
    const calls = stubFetch((url, init) => {
      const method = init?.method ?? 'GET';
      if (url === '/api/spaces') return { status: 200, body: spaces };
      if (url === '/api/spaces/personal/people')
        return { status: 200, body: { enabled: true, canEdit: true, canManage: true, people } };
      if (url === '/api/spaces/personal/people/p1' && method === 'GET')
        return {
          status: 200,
          body: { person: ana, photos: [photo('file1', 'beach.jpg', 'f1'), photo('file2', 'party.jpg', 'f2')] },
        };
      if (url === '/api/spaces/personal/people/p3' && method === 'GET')
        return { status: 200, body: { person: split, photos: [photo('file2', 'party.jpg', 'f2')] } };
      if (url === '/api/spaces/personal/people/p1/split') {
        people = [{ ...ana, faceCount: 1, photoCount: 1 }, unnamed, split];
        return { status: 201, body: split };
      }
      return undefined;
    });
    renderAt(PATH, <PeoplePage />);
    await userEvent.click(
      within(await screen.findByRole('list', { name: 'People' })).getByRole('button', { name: /Ana/ }),
    );
    await screen.findByRole('img', { name: 'party.jpg' });

    await userEvent.click(screen.getByRole('button', { name: 'Split…' }));
    const bar = screen.getByRole('group', { name: 'Split' });
    expect(within(bar).getByRole('button', { name: 'Move to a new person' })).toHaveProperty('disabled', true);
    // While splitting, the faces are chosen instead of removed.
    expect(screen.queryByRole('button', { name: /^Not Ana/ })).toBeNull();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Choose the face in party.jpg' }));
    expect(within(bar).getByText('1 face chosen.')).toBeTruthy();
    await userEvent.click(within(bar).getByRole('button', { name: 'Move to a new person' }));
    await waitFor(() =>
      expect(calls).toContainEqual({
        url: '/api/spaces/personal/people/p1/split',
        method: 'POST',
        body: { faceIds: ['f2'] },
      }),
    );
    // The new person opens, unnamed, ready to be named.
    expect(await screen.findByRole('heading', { name: 'Unnamed person' })).toBeTruthy();
    expect(await screen.findByRole('list', { name: 'Photos of Unnamed person' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Split' })).toBeNull();
  });
});

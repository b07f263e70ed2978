import type { Link, Share, ShareList } from '@atrium/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderAt, stubApi } from '../test-utils';
import { useShareAction } from '../../../lib/share-action';
import { ShareDialog } from './share-dialog';
import { ShareHost } from './share-host';
import { downloadsText, endOfDay, receivedText } from './links-section';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const alice = { ownerKey: 'alice', name: 'Alice Adams', nickname: null, email: 'alice@example.com', picture: null };
const bob = { ownerKey: 'bob', name: 'Bob Brown', nickname: null, email: 'bob@example.com', picture: null };
const dave = { ownerKey: 'dave', name: 'Dave Caring', nickname: null, email: 'dave@example.com', picture: null };
const carol = { ownerKey: 'carol', name: null, nickname: 'caro', email: 'carol@example.com', picture: null };

const bobShare: Share = {
  id: 's1',
  role: 'viewer',
  grantee: { kind: 'user', user: bob },
  createdAt: '2026-11-20T10:00:00.000Z',
  createdBy: 'Alice Adams',
};
const teamShare: Share = {
  id: 's2',
  role: 'editor',
  grantee: { kind: 'workspace', id: 'ws1', name: 'Design team' },
  createdAt: '2026-11-20T10:00:00.000Z',
  createdBy: 'Alice Adams',
};

const link = (over: Partial<Link> = {}): Link => ({
  id: 'l1',
  token: 'tok1',
  url: '/s/tok1',
  fileId: 'f1',
  folderId: null,
  expiresAt: null,
  hasPassword: false,
  maxDownloads: null,
  downloads: 0,
  allowUpload: false,
  createdAt: '2026-11-20T10:00:00.000Z',
  createdBy: 'Alice Adams',
  suspended: false,
  ...over,
});

const spaces = [
  { kind: 'personal', id: null, name: 'Personal', rootFolderId: 'r0' },
  { kind: 'workspace', id: 'ws1', name: 'Design team', role: 'editor', rootFolderId: 'r1' },
  { kind: 'workspace', id: 'ws2', name: 'Sales', role: 'viewer', rootFolderId: 'r2' },
];

const file = { kind: 'file' as const, id: 'f1', name: 'budget.xlsx' };

function fileApi(over: Record<string, Parameters<typeof stubApi>[0][string]> = {}) {
  let list: ShareList = { owner: { kind: 'user', user: alice }, shares: [bobShare, teamShare] };
  let links: Link[] = [link({ downloads: 3, maxDownloads: 10, hasPassword: true })];
  const calls = stubApi({
    'GET /api/files/f1/shares': () => json(200, list),
    'GET /api/spaces': () => json(200, spaces),
    'GET /api/links?fileId=f1': () => json(200, links),
    'GET /api/users?q=car': () => json(200, [alice, bob, carol, dave]),
    'GET /api/me': () => json(200, { ...dave, id: 'u-dave', isAdmin: false, role: 'user', firstLogin: false }),
    'PUT /api/files/f1/shares/carol': (call) => {
      const role = (call.body as { role: 'viewer' | 'editor' }).role;
      list = {
        ...list,
        shares: [...list.shares, { ...bobShare, id: 's3', role, grantee: { kind: 'user', user: carol } }],
      };
      return json(200, list.shares.at(-1));
    },
    'PUT /api/files/f1/shares/bob': (call) => {
      list = { ...list, shares: list.shares.map((s) => (s.id === 's1' ? { ...s, ...(call.body as object) } : s)) };
      return json(200, list.shares[0]);
    },
    'DELETE /api/files/f1/shares/workspaces/ws1': () => {
      list = { ...list, shares: list.shares.filter((s) => s.id !== 's2') };
      return json(200, { id: 's2', revoked: true });
    },
    'PUT /api/files/f1/shares/workspaces/ws2': () => json(200, {}),
    'POST /api/links': (call) => {
      const created = link({ id: 'l2', token: 'tok2', url: '/s/tok2', ...(call.body as object) });
      links = [...links, created];
      return json(201, created);
    },
    'DELETE /api/links/l1': () => {
      links = links.filter((l) => l.id !== 'l1');
      return json(200, { id: 'l1', revoked: true });
    },
    ...over,
  });
  return calls;
}

describe('ShareDialog: people', () => {
  it('lists the owner and every grantee with their roles, as an accessible modal dialog', async () => {
    fileApi();
    renderAt(<ShareDialog target={file} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Share “budget.xlsx”' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const access = await screen.findByRole('list', { name: 'Who has access' });
    const rows = within(access).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Alice Adams'),
      expect.stringContaining('Bob Brown'),
      expect.stringContaining('Design team · workspace'),
    ]);
    expect(rows[0]?.textContent).toContain('Owner');
    expect((screen.getByLabelText('Role for Bob Brown') as HTMLSelectElement).value).toBe('viewer');
    expect((screen.getByLabelText('Role for Design team') as HTMLSelectElement).value).toBe('editor');
    expect(document.activeElement).toBe(screen.getByLabelText('Add people'));
  });

  it('searches the directory, hides the owner, the caller and people who already have access, and adds with the chosen role', async () => {
    const calls = fileApi();
    renderAt(<ShareDialog target={file} onClose={() => {}} />);
    await screen.findByRole('list', { name: 'Who has access' });
    await userEvent.selectOptions(screen.getByLabelText('Role for new people'), 'editor');
    await userEvent.type(screen.getByLabelText('Add people'), 'car');
    const matches = await screen.findByRole('list', { name: 'Matching people' });
    await waitFor(() =>
      expect(
        within(matches)
          .getAllByRole('button')
          .map((b) => b.getAttribute('aria-label')),
      ).toEqual(['Add caro (carol@example.com)']),
    );
    await userEvent.click(within(matches).getByRole('button', { name: 'Add caro (carol@example.com)' }));
    await waitFor(() => expect(screen.getByLabelText('Role for caro')).toBeTruthy());
    expect((screen.getByLabelText('Role for caro') as HTMLSelectElement).value).toBe('editor');
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      method: 'PUT',
      url: '/api/files/f1/shares/carol',
      body: { role: 'editor' },
    });
    expect(screen.getByText('Shared with caro as editor.').getAttribute('role')).toBe('status');
  });

  it('changes a role, revokes a workspace grant, and shares with a workspace the caller belongs to', async () => {
    const calls = fileApi();
    renderAt(<ShareDialog target={file} onClose={() => {}} />);
    await userEvent.selectOptions(await screen.findByLabelText('Role for Bob Brown'), 'editor');
    await waitFor(() =>
      expect((screen.getByLabelText('Role for Bob Brown') as HTMLSelectElement).value).toBe('editor'),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Remove Design team' }));
    await waitFor(() => expect(screen.queryByLabelText('Role for Design team')).toBeNull());
    // The workspace picker offers workspaces without a grant yet (not the personal space).
    const picker = screen.getByLabelText('Share with a workspace');
    await waitFor(() =>
      expect([...picker.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
        'Choose a workspace…',
        'Design team',
        'Sales',
      ]),
    );
    await userEvent.selectOptions(picker, 'ws2');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(
        expect.arrayContaining([
          'PUT /api/files/f1/shares/bob',
          'DELETE /api/files/f1/shares/workspaces/ws1',
          'PUT /api/files/f1/shares/workspaces/ws2',
        ]),
      ),
    );
  });

  it("shows the server's message when sharing fails", async () => {
    fileApi({
      'PUT /api/files/f1/shares/carol': () =>
        json(403, { error: { code: 'FORBIDDEN', message: 'Viewers cannot share this file.' } }),
    });
    renderAt(<ShareDialog target={file} onClose={() => {}} />);
    await userEvent.type(await screen.findByLabelText('Add people'), 'car');
    await userEvent.click(await screen.findByRole('button', { name: 'Add caro (carol@example.com)' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Viewers cannot share this file.');
  });

  it('closes on Escape and on the close button; Tab stays inside', async () => {
    fileApi();
    const onClose = vi.fn();
    renderAt(<ShareDialog target={file} onClose={onClose} />);
    await screen.findByRole('list', { name: 'Links' });
    const dialog = screen.getByRole('dialog');
    const close = screen.getByRole('button', { name: 'Close' });
    close.focus();
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    // Shift+Tab from the first control wraps to the last (the last link's Revoke button).
    expect(document.activeElement?.textContent).toBe('Revoke');
    fireEvent.keyDown(document.activeElement ?? dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await userEvent.click(close);
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});

describe('ShareDialog: links', () => {
  it('lists links with their downloads, copies one and says "Copied"', async () => {
    fileApi();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAt(<ShareDialog target={file} onClose={() => {}} />);
    const links = await screen.findByRole('list', { name: 'Links' });
    expect(within(links).getByText(/3 of 10 downloads/).textContent).toBe('No expiry · Password · 3 of 10 downloads');
    expect((within(links).getByLabelText('Link address') as HTMLInputElement).value).toBe(
      `${window.location.origin}/s/tok1`,
    );
    await userEvent.click(within(links).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/s/tok1`);
    expect(await within(links).findByRole('button', { name: 'Copied' })).toBeTruthy();
  });

  it('marks a suspended link with the reason (its maker can no longer share the file)', async () => {
    fileApi({
      'GET /api/links?fileId=f1': () =>
        json(200, [link({ createdBy: 'Bob Brown', suspended: true }), link({ id: 'l2', token: 'tok2' })]),
    });
    renderAt(<ShareDialog target={file} onClose={() => {}} />);
    const links = await screen.findByRole('list', { name: 'Links' });
    const rows = within(links).getAllByRole('listitem');
    expect(rows[0]?.textContent).toContain(
      'Suspended: Bob Brown can no longer share this, so the link does not work. It works again if they get that access back.',
    );
    expect(rows[1]?.textContent).not.toContain('Suspended');
  });

  it('copies over plain http (no Clipboard API) through the address field, and says when it cannot', async () => {
    fileApi();
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    const execCommand = vi.fn(() => true);
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    renderAt(<ShareDialog target={file} onClose={() => {}} />);
    const links = await screen.findByRole('list', { name: 'Links' });
    const field = within(links).getByLabelText('Link address') as HTMLInputElement;
    await userEvent.click(within(links).getByRole('button', { name: 'Copy link' }));
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, field.value.length]);
    expect(await within(links).findByRole('button', { name: 'Copied' })).toBeTruthy();
    execCommand.mockReturnValue(false);
    await userEvent.click(within(links).getByRole('button', { name: 'Copied' }));
    expect(await within(links).findByText('Could not copy: select the address and copy it.')).toBeTruthy();
  });

  it('creates a link with expiry, password and limit (no file-drop option for a file)', async () => {
    const calls = fileApi();
    renderAt(<ShareDialog target={file} onClose={() => {}} />);
    await screen.findByRole('list', { name: 'Links' });
    expect(screen.queryByLabelText(/Allow uploads/)).toBeNull();
    fireEvent.change(screen.getByLabelText(/Expires on/), { target: { value: '2099-12-31' } });
    await userEvent.type(screen.getByLabelText(/Password/), 's3cret');
    await userEvent.type(screen.getByLabelText(/Download limit/), '5');
    await userEvent.click(screen.getByRole('button', { name: 'Create link' }));
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Links' })).getAllByRole('listitem')).toHaveLength(2),
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      fileId: 'f1',
      expiresAt: endOfDay('2099-12-31'),
      password: 's3cret',
      maxDownloads: 5,
    });
    expect((screen.getByLabelText(/Password/) as HTMLInputElement).value).toBe('');
  });

  it('refuses a past expiry date and a zero limit before asking the server', async () => {
    const calls = fileApi();
    renderAt(<ShareDialog target={file} onClose={() => {}} />);
    await screen.findByRole('list', { name: 'Links' });
    fireEvent.change(screen.getByLabelText(/Expires on/), { target: { value: '2000-01-01' } });
    await userEvent.click(screen.getByRole('button', { name: 'Create link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Choose an expiry date from today on.');
    fireEvent.change(screen.getByLabelText(/Expires on/), { target: { value: '' } });
    await userEvent.type(screen.getByLabelText(/Download limit/), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Create link' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The download limit is a whole number from 1.');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('says what arrived through a file drop instead of downloads, each name opening the viewer', async () => {
    const drop = link({
      id: 'l7',
      folderId: 'd1',
      fileId: null,
      allowUpload: true,
      received: {
        count: 3,
        recent: [
          { fileId: 'f3', name: 'contract.pdf', at: '2026-11-21T10:02:00.000Z' },
          { fileId: 'f2', name: 'brief (1).txt', at: '2026-11-21T10:01:00.000Z' },
          { fileId: 'f1', name: 'logo.png', at: '2026-11-21T10:00:00.000Z' },
        ],
      },
    });
    const empty = link({
      id: 'l8',
      folderId: 'd1',
      fileId: null,
      allowUpload: true,
      received: { count: 0, recent: [] },
    });
    const plain = link({ id: 'l9', folderId: 'd1', fileId: null, downloads: 2, received: null });
    stubApi({
      'GET /api/folders/d1/shares': () =>
        json(200, { owner: { kind: 'workspace', id: 'ws1', name: 'Design team' }, shares: [] }),
      'GET /api/spaces': () => json(200, spaces),
      'GET /api/links?folderId=d1': () => json(200, [drop, empty, plain]),
    });
    const onClose = vi.fn();
    renderAt(<ShareDialog target={{ kind: 'folder', id: 'd1', name: 'Drops' }} onClose={onClose} />, '/spaces/ws1');
    const rows = within(await screen.findByRole('list', { name: 'Links' })).getAllByRole('listitem', {
      name: (_, el) => el.parentElement?.getAttribute('aria-label') === 'Links',
    });
    expect(rows).toHaveLength(3);
    const [dropRow, emptyRow, plainRow] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(dropRow).getByText('File drop · No expiry · 3 files received')).toBeTruthy();
    expect(within(dropRow).queryByText(/downloads/)).toBeNull();
    const names = within(within(dropRow).getByRole('list', { name: 'Recently received' })).getAllByRole('link');
    expect(names.map((a) => a.textContent)).toEqual(['contract.pdf', 'brief (1).txt', 'logo.png']);
    expect(names[0]?.getAttribute('href')).toBe('/spaces/ws1?file=f3');
    expect(within(emptyRow).getByText('File drop · No expiry · No files received yet')).toBeTruthy();
    expect(within(emptyRow).queryByRole('list', { name: 'Recently received' })).toBeNull();
    expect(within(plainRow).getByText('No expiry · 2 downloads')).toBeTruthy();
    // Choosing a name opens the viewer over the page: the dialog closes.
    await userEvent.click(names[1] as HTMLElement);
    expect(onClose).toHaveBeenCalled();
  });

  it('counts received files in words', () => {
    expect([0, 1, 3].map(receivedText)).toEqual(['No files received yet', '1 file received', '3 files received']);
  });

  it('offers file drop for folders', async () => {
    const calls = stubApi({
      'GET /api/folders/d1/shares': () =>
        json(200, { owner: { kind: 'workspace', id: 'ws1', name: 'Design team' }, shares: [] }),
      'GET /api/spaces': () => json(200, spaces),
      'GET /api/links?folderId=d1': () => json(200, []),
      'POST /api/links': (call) =>
        json(201, link({ id: 'l9', folderId: 'd1', fileId: null, ...(call.body as object) })),
    });
    renderAt(<ShareDialog target={{ kind: 'folder', id: 'd1', name: 'Drops' }} onClose={() => {}} />);
    expect(await screen.findByText('No links yet.')).toBeTruthy();
    expect(screen.getByText('Workspace (owner)')).toBeTruthy();
    // The workspace holding the folder is not offered as a grantee (its members have access already).
    const picker = await screen.findByLabelText('Share with a workspace');
    expect([...picker.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['Choose a workspace…', 'Sales']);
    await userEvent.click(screen.getByLabelText(/Allow uploads \(file drop\)/));
    await userEvent.click(screen.getByRole('button', { name: 'Create link' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ folderId: 'd1', allowUpload: true }),
    );
  });

  it('revokes a link only after confirming; Escape in the confirmation keeps the share dialog open', async () => {
    const calls = fileApi();
    const onClose = vi.fn();
    renderAt(<ShareDialog target={file} onClose={onClose} />);
    const links = await screen.findByRole('list', { name: 'Links' });
    await userEvent.click(within(links).getByRole('button', { name: 'Revoke' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Revoke this link?' });
    fireEvent.keyDown(confirm, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(links).getByRole('button', { name: 'Revoke' }));
    await userEvent.click(screen.getByRole('button', { name: 'Revoke link' }));
    expect(await screen.findByText('No links yet.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/links/l1']);
  });
});

describe('link texts', () => {
  it('counts downloads against the limit', () => {
    expect(downloadsText({ downloads: 1, maxDownloads: null })).toBe('1 download');
    expect(downloadsText({ downloads: 0, maxDownloads: null })).toBe('0 downloads');
    expect(downloadsText({ downloads: 2, maxDownloads: 5 })).toBe('2 of 5 downloads');
  });
});

describe('ShareHost', () => {
  it('lets any menu open the dialog through useShareAction, and closes it again', async () => {
    fileApi();
    function Opener() {
      const share = useShareAction();
      return (
        <button type="button" onClick={() => share?.(file)}>
          Open sharing
        </button>
      );
    }
    renderAt(
      <ShareHost>
        <Opener />
      </ShareHost>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Open sharing' }));
    expect(screen.getByRole('dialog', { name: 'Share “budget.xlsx”' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open sharing' }));
  });
});

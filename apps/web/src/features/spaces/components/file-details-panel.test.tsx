import type { FileDetails } from '@atrium/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../../test/render';
import { activityText, FileDetailsPanel, relativeTime } from './file-details-panel';

const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();
const SHA = 'a'.repeat(32) + 'b'.repeat(32);

const details = (over: Partial<FileDetails> = {}): FileDetails => ({
  id: 'f1',
  name: 'roadmap.txt',
  contentType: 'text/plain',
  size: 2048,
  sha256: SHA,
  createdAt: ago(3 * 86400),
  updatedAt: ago(3600),
  location: {
    spaceKind: 'workspace',
    spaceId: 'w1',
    spaceName: 'Design team',
    folderId: 'd2',
    path: [
      { id: 'root', name: '' },
      { id: 'd1', name: 'Projects' },
      { id: 'd2', name: 'Archive' },
    ],
  },
  versions: { count: 2, bytes: 3072 },
  yourRole: 'owner',
  access: [
    { kind: 'member', principal: { type: 'user', id: 'u1', name: 'Dora' }, role: 'owner', via: null },
    {
      kind: 'share',
      principal: { type: 'user', id: 'u2', name: 'Vince' },
      role: 'viewer',
      via: { folderId: 'd1', folderName: 'Projects' },
    },
  ],
  links: [
    {
      id: 'l1',
      token: 't',
      url: '/s/t',
      fileId: 'f1',
      folderId: null,
      expiresAt: null,
      hasPassword: true,
      maxDownloads: null,
      downloads: 3,
      allowUpload: false,
      createdAt: ago(60),
      createdBy: 'Dora',
      suspended: false,
    },
  ],
  activity: [
    { action: 'file.renamed', actor: 'Dora', at: ago(120), details: { from: 'plan.txt', to: 'roadmap.txt' } },
    { action: 'file.uploaded', actor: 'Dora', at: ago(2 * 86400), details: { name: 'plan.txt', size: 10 } },
  ],
  ...over,
});

function renderPanel(onClose = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <FileDetailsPanel target={{ kind: 'file', id: 'f1', name: 'roadmap.txt' }} onClose={onClose} />
    </QueryClientProvider>,
  );
  return onClose;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('FileDetailsPanel', () => {
  it('shows the file, where it is, its versions, who has access, its links and its activity; copies the SHA-256', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
    const calls = stubFetch((url) => (url === '/api/files/f1/details' ? { status: 200, body: details() } : undefined));
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPanel();
    const panel = await screen.findByRole('dialog', { name: 'roadmap.txt' });
    await within(panel).findByText('text/plain');
    expect(within(panel).getByText('2.00 KB')).toBeTruthy();
    expect(within(panel).getByText('Design team › Projects › Archive')).toBeTruthy();
    expect(within(panel).getByText('Owner')).toBeTruthy();
    expect(within(panel).getByText(/2 older versions · 3.00 KB/)).toBeTruthy();
    expect((within(panel).getByRole('textbox', { name: 'SHA-256' }) as HTMLInputElement).value).toBe(SHA);

    const access = within(within(panel).getByRole('list', { name: 'People and workspaces with access' }));
    expect(access.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'DoraOwner · workspace member',
      'VinceViewer · shared through the folder “Projects”',
    ]);
    expect(within(panel).getByRole('list', { name: 'Active public links' }).textContent).toContain(
      '3 downloads · password',
    );

    const activity = within(within(panel).getByRole('list', { name: 'Activity, newest first' }));
    expect(activity.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Dora renamed it from “plan.txt” to “roadmap.txt”2 minutes ago',
      'Dora uploaded it2 days ago',
    ]);

    await userEvent.click(within(panel).getByRole('button', { name: 'Copy SHA-256' }));
    expect(writeText).toHaveBeenCalledWith(SHA);
    await waitFor(() => expect(within(panel).getByRole('button', { name: 'Copied' })).toBeTruthy());
    expect(calls.map((call) => call.url)).toEqual(['/api/files/f1/details']);
  });

  it('closes on Escape', async () => {
    stubFetch(() => ({ status: 200, body: details() }));
    const onClose = renderPanel();
    await screen.findByText('text/plain');
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('opens the Versions dialog from the versions count', async () => {
    stubFetch((url) =>
      url === '/api/files/f1/details'
        ? { status: 200, body: details() }
        : url === '/api/files/f1/versions'
          ? { status: 200, body: { versions: [], kept: 10 } }
          : undefined,
    );
    renderPanel();
    await userEvent.click(await screen.findByRole('button', { name: 'Show versions' }));
    expect(await screen.findByRole('dialog', { name: 'Versions of roadmap.txt' })).toBeTruthy();
    expect(await screen.findByText(/No older versions. This file has only ever had/)).toBeTruthy();
  });

  it('tells a viewer that only owners and editors see who has access, with no links section', async () => {
    stubFetch(() => ({ status: 200, body: details({ yourRole: 'viewer', access: null, links: null, activity: [] }) }));
    renderPanel();
    expect(await screen.findByText('Only owners and editors of this file see who has access.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Public links' })).toBeNull();
    expect(screen.getByText('No recorded activity.')).toBeTruthy();
    expect(screen.getByText('Viewer')).toBeTruthy();
  });

  it("shows the server's error with Try again", async () => {
    let fail = true;
    stubFetch(() =>
      fail
        ? { status: 404, body: { error: { code: 'FILE_NOT_FOUND', message: 'File not found.' } } }
        : { status: 200, body: details() },
    );
    renderPanel();
    expect((await screen.findByRole('alert')).textContent).toBe('File not found.');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('text/plain')).toBeTruthy();
  });
});

describe('activity texts and relative times', () => {
  it('says what happened in words', () => {
    const at = ago(0);
    expect(activityText({ action: 'file.uploaded', actor: null, at, details: { via: 'link' } })).toBe(
      'Uploaded through a file-drop link',
    );
    expect(
      activityText({
        action: 'file.moved',
        actor: 'Erin',
        at,
        details: { from: { otherSpace: true }, to: { name: 'Team' } },
      }),
    ).toBe('Erin moved it from another space to “Team”');
    expect(
      activityText({
        action: 'share.created',
        actor: 'Dora',
        at,
        details: { grantee: { kind: 'user', ownerKey: 'vince' }, role: 'viewer' },
      }),
    ).toBe('Dora shared it with vince as viewer');
    expect(activityText({ action: 'file.version_restored', actor: 'Dora', at, details: null })).toBe(
      'Dora restored an older version',
    );
  });

  it('counts back from now', () => {
    const now = new Date(NOW);
    expect(relativeTime(ago(10), now)).toBe('just now');
    expect(relativeTime(ago(5 * 60), now)).toBe('5 minutes ago');
    expect(relativeTime(ago(3 * 3600), now)).toBe('3 hours ago');
    expect(relativeTime(ago(86400), now)).toBe('yesterday');
    expect(relativeTime(ago(400 * 86400), now)).toBe('last year');
  });
});

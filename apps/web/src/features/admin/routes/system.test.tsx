import type { SystemStatus } from '@atrium/contracts';
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt, stubFetch } from '../../../test/render';
import AdminSystemPage from './system';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const status = (files: number): SystemStatus => ({
  version: '0.1.0',
  commit: null,
  uptimeSeconds: 3725,
  checkedAt: '2026-11-24T10:00:00.000Z',
  checks: [
    { name: 'database', status: 'ok', latencyMs: 2 },
    { name: 'bus', status: 'error', message: 'connection refused' },
    { name: 'ai.speechToText', status: 'loading', latencyMs: 0 },
  ],
  database: { kind: 'postgres', sizeBytes: 2 * 1024 * 1024 },
  storage: { blobBytes: 1536, files, trashBytes: 512, versionBytes: 2048, tusBytes: 0, blobStore: 'fs' },
  streams: { openOnThisInstance: 3 },
  push: { subscriptions: 4 },
  jobs: null,
  scheduledNotifications: { pending: 2 },
  ai: [{ name: 'ai.speechToText', status: 'loading', latencyMs: 0 }],
  config: [
    { key: 'DATABASE', value: 'postgres', secret: false },
    { key: 'SESSION_SECRET', value: 'set', secret: true },
  ],
});

describe('admin system page', () => {
  it('shows each section as a card and refreshes every 15 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let files = 1;
    const calls = stubFetch((url) => (url === '/api/admin/system' ? { status: 200, body: status(files) } : undefined));
    renderAt('/dashboard/admin/system', <AdminSystemPage />);

    const database = await screen.findByRole('region', { name: 'Database' });
    expect(within(database).getByText('PostgreSQL')).toBeTruthy();
    expect(within(database).getByText('2.00 MB')).toBeTruthy();
    const checks = screen.getByRole('list', { name: 'Dependency checks' });
    expect(within(checks).getByText('database')).toBeTruthy();
    expect(within(checks).getByText('2 ms')).toBeTruthy();
    expect(within(checks).getByText('connection refused')).toBeTruthy();
    expect(within(checks).queryByText('ai.speechToText')).toBeNull();
    expect(within(screen.getByRole('list', { name: 'AI engines' })).getByText('loading')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Server' })).getByText('1 h 2 min')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Server' })).getByText('not recorded')).toBeTruthy();
    const jobs = screen.getByRole('region', { name: 'Background jobs' });
    expect(within(jobs).getByText('No background jobs.')).toBeTruthy();
    expect(within(jobs).getByText('Scheduled messages').nextSibling?.textContent).toBe('2');
    expect(within(screen.getByRole('region', { name: 'Live connections' })).getByText('3')).toBeTruthy();
    const config = screen.getByRole('region', { name: 'Configuration' });
    expect(within(config).getByText('SESSION_SECRET').nextSibling?.textContent).toBe('set');
    const storage = screen.getByRole('region', { name: 'Storage' });
    expect(within(storage).getByText('1')).toBeTruthy();
    expect(within(storage).getByText('In the trash').nextSibling?.textContent).toBe('512 Bytes');
    expect(within(storage).getByText('Older versions').nextSibling?.textContent).toBe('2.00 KB');

    files = 5;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(15_000);
    });
    expect(calls.filter((c) => c.url === '/api/admin/system').length).toBe(2);
    expect(await within(storage).findByText('5')).toBeTruthy();
  });

  it('shows the commit and the job queue when the server has them', async () => {
    stubFetch((url) =>
      url === '/api/admin/system'
        ? {
            status: 200,
            body: {
              ...status(1),
              commit: '0123456789abcdef0123456789abcdef01234567',
              jobs: { queued: 7, running: 1, failed: 3 },
            },
          }
        : undefined,
    );
    renderAt('/dashboard/admin/system', <AdminSystemPage />);
    const server = await screen.findByRole('region', { name: 'Server' });
    expect(within(server).getByText('0123456789ab').getAttribute('title')).toBe(
      '0123456789abcdef0123456789abcdef01234567',
    );
    const jobs = screen.getByRole('region', { name: 'Background jobs' });
    expect(within(jobs).getByText('Queued').nextSibling?.textContent).toBe('7');
    expect(within(jobs).getByText('Running').nextSibling?.textContent).toBe('1');
    expect(within(jobs).getByText('Failed').nextSibling?.textContent).toBe('3');
    expect(within(jobs).queryByText('No background jobs.')).toBeNull();
  });

  it('shows the server refusal', async () => {
    stubFetch(() => ({
      status: 403,
      body: { error: { code: 'FORBIDDEN', message: 'Only admins can see the system status.' } },
    }));
    renderAt('/dashboard/admin/system', <AdminSystemPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Only admins can see the system status.');
  });

  it('turns "Members must accept workspace invitations" on', async () => {
    const calls = stubFetch((url, init) =>
      url === '/api/admin/system'
        ? { status: 200, body: status(1) }
        : url === '/api/admin/settings'
          ? { status: 200, body: { membersMustAccept: init?.method === 'PUT' } }
          : undefined,
    );
    renderAt('/dashboard/admin/system', <AdminSystemPage />);
    const toggle = await screen.findByRole('checkbox', { name: /Members must accept workspace invitations/ });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    act(() => (toggle as HTMLInputElement).click());
    await vi.waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      url: '/api/admin/settings',
      body: { membersMustAccept: true },
    });
  });
});

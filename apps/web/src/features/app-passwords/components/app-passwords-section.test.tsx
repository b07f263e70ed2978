import type { AppPasswordRecord, CreatedAppPassword } from '@atrium/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { me, renderAt, stubFetch } from '../../../test/render';
import { AppPasswordsSection } from './app-passwords-section';

afterEach(() => vi.unstubAllGlobals());

const record = (overrides: Partial<AppPasswordRecord>): AppPasswordRecord => ({
  id: 'p1',
  name: 'Laptop',
  ownerKey: 'alice',
  createdAt: '2026-11-01T10:00:00.000Z',
  lastUsedAt: null,
  lastUsedIp: null,
  revokedAt: null,
  ...overrides,
});

describe('profile: app passwords', () => {
  it('creates one, shows it once with the WebDAV address, lists it and revokes it', async () => {
    let list: AppPasswordRecord[] = [record({ id: 'old', name: 'Old phone', revokedAt: '2026-11-02T00:00:00.000Z' })];
    const created: CreatedAppPassword = { id: 'p9', name: 'Laptop', password: 'secret-shown-once' };
    const calls = stubFetch((url, init) => {
      if (url === '/api/me') return { status: 200, body: me() };
      if (url === '/api/me/app-passwords' && init?.method === 'POST') {
        list = [record({ id: 'p9', lastUsedAt: '2026-11-03T10:00:00.000Z', lastUsedIp: '203.0.113.7' }), ...list];
        return { status: 201, body: created };
      }
      if (url === '/api/me/app-passwords') return { status: 200, body: list };
      if (url === '/api/me/app-passwords/p9' && init?.method === 'DELETE') {
        list = list.map((p) => (p.id === 'p9' ? { ...p, revokedAt: '2026-11-04T00:00:00.000Z' } : p));
        return { status: 200, body: list[0] };
      }
      return undefined;
    });
    renderAt('/dashboard/profile', <AppPasswordsSection />);
    // A revoked one is not listed.
    expect(await screen.findByText('No app passwords yet.')).toBeTruthy();

    await userEvent.type(screen.getByLabelText('Name'), 'Laptop');
    await userEvent.click(screen.getByRole('button', { name: 'Create app password' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Copy this password now: you will not see it again.')).toBeTruthy();
    expect((within(dialog).getByLabelText('App password') as HTMLInputElement).value).toBe('secret-shown-once');
    expect((within(dialog).getByLabelText('WebDAV address') as HTMLInputElement).value).toBe(
      `${window.location.origin}/remote.php/dav/files/alice/`,
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Laptop' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(document.body.textContent).not.toContain('secret-shown-once');

    const listed = await screen.findByRole('list', { name: 'App passwords' });
    expect(within(listed).getByText('Laptop')).toBeTruthy();
    expect(within(listed).getByText(/from 203\.0\.113\.7/)).toBeTruthy();
    await userEvent.click(within(listed).getByRole('button', { name: 'Revoke Laptop' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No app passwords yet.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/me/app-passwords/p9')).toBe(true);
  });

  it('shows the server’s refusal next to the form', async () => {
    stubFetch((url, init) => {
      if (url === '/api/me') return { status: 200, body: me() };
      if (url === '/api/me/app-passwords' && init?.method === 'POST')
        return {
          status: 400,
          body: { error: { code: 'VALIDATION_FAILED', message: 'Please name the app password.' } },
        };
      if (url === '/api/me/app-passwords') return { status: 200, body: [] };
      return undefined;
    });
    renderAt('/dashboard/profile', <AppPasswordsSection />);
    await userEvent.type(await screen.findByLabelText('Name'), ' x ');
    await userEvent.click(screen.getByRole('button', { name: 'Create app password' }));
    expect(await screen.findByText('Please name the app password.')).toBeTruthy();
  });
});

import type { ApiKeyRecord, CreatedApiKey } from '@atrium/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt, stubFetch } from '../../../test/render';
import AdminApiKeysPage from './api-keys';

afterEach(() => vi.unstubAllGlobals());

const record = (overrides: Partial<ApiKeyRecord>): ApiKeyRecord => ({
  id: 'k1',
  name: 'Kiosk',
  prefix: 'atr_AbCdEf',
  createdAt: '2026-11-01T10:00:00.000Z',
  createdBy: 'id-admin',
  createdByName: 'Admin Person',
  lastUsedAt: null,
  revokedAt: null,
  expiresAt: null,
  ...overrides,
});

describe('admin API keys page', () => {
  it('lists keys with prefix, creator, last use, expiry and state; revoked keys have no Revoke', async () => {
    stubFetch((url) => {
      if (url === '/api/ai/keys')
        return {
          status: 200,
          body: [
            record({ lastUsedAt: '2026-11-02T10:00:00.000Z' }),
            record({ id: 'k2', name: 'Old', revokedAt: '2026-11-03T00:00:00.000Z' }),
            record({ id: 'k3', name: 'Lapsed', expiresAt: '2020-01-01T00:00:00.000Z', createdByName: null }),
          ],
        };
      return undefined;
    });
    renderAt('/dashboard/admin/api-keys', <AdminApiKeysPage />);
    const table = await screen.findByRole('table', { name: 'API keys' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual(['Kiosk', 'Old', 'Lapsed']);
    const [kiosk, old, lapsed] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(kiosk).getByText('atr_AbCdEf…')).toBeTruthy();
    expect(within(kiosk).getByText('Admin Person')).toBeTruthy();
    expect(within(kiosk).getByText(new Date('2026-11-02T10:00:00.000Z').toLocaleString())).toBeTruthy();
    expect(within(kiosk).getByText('Active')).toBeTruthy();
    expect(within(old).getByText('Revoked')).toBeTruthy();
    expect(within(old).queryByRole('button', { name: /Revoke/ })).toBeNull();
    expect(within(lapsed).getByText('Expired')).toBeTruthy();
    expect(within(lapsed).getByText('—')).toBeTruthy();
    // The phone layout lists the same keys as cards.
    expect(within(screen.getByRole('list', { name: 'API keys' })).getAllByRole('listitem')).toHaveLength(3);
  });

  it('creates a key with an expiry, shows it once with Copy, and forgets it after Done', async () => {
    const created: CreatedApiKey = {
      ...record({ id: 'k9', name: 'Robot', expiresAt: new Date('2027-01-31T23:59:59.999').toISOString() }),
      key: 'atr_secret-value-shown-once',
    };
    let keys: ApiKeyRecord[] = [];
    const calls = stubFetch((url, init) => {
      if (url === '/api/ai/keys' && init?.method === 'POST') {
        const { key: _key, ...stored } = created;
        keys = [stored];
        return { status: 201, body: created };
      }
      if (url === '/api/ai/keys') return { status: 200, body: keys };
      return undefined;
    });
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderAt('/dashboard/admin/api-keys', <AdminApiKeysPage />);
    expect(await screen.findByText('No API keys yet.')).toBeTruthy();

    await userEvent.type(screen.getByLabelText('Name'), 'Robot');
    await userEvent.type(screen.getByLabelText('Expires on (optional)'), '2027-01-31');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Copy this key now: you will not see it again.')).toBeTruthy();
    expect((within(dialog).getByLabelText('API key') as HTMLInputElement).value).toBe('atr_secret-value-shown-once');
    // Copy is focused first: Enter copies the key straight away.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Copy' })));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('atr_secret-value-shown-once');
    expect(await within(dialog).findByRole('button', { name: 'Copied' })).toBeTruthy();

    const post = calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ name: 'Robot', expiresAt: new Date('2027-01-31T23:59:59.999').toISOString() });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    const table = await screen.findByRole('table', { name: 'API keys' });
    expect(within(table).getByText('Robot')).toBeTruthy();
    expect(document.body.textContent).not.toContain('atr_secret-value-shown-once');
  });

  it('shows the server refusal of a bad expiry next to the form', async () => {
    stubFetch((url, init) => {
      if (url === '/api/ai/keys' && init?.method === 'POST')
        return {
          status: 400,
          body: { error: { code: 'VALIDATION_FAILED', message: 'The expiry must be in the future.' } },
        };
      if (url === '/api/ai/keys') return { status: 200, body: [] };
      return undefined;
    });
    renderAt('/dashboard/admin/api-keys', <AdminApiKeysPage />);
    await userEvent.type(await screen.findByLabelText('Name'), 'Past');
    await userEvent.type(screen.getByLabelText('Expires on (optional)'), '2001-01-01');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The expiry must be in the future.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('revokes a key only after the confirmation', async () => {
    let revoked = false;
    const calls = stubFetch((url, init) => {
      if (url === '/api/ai/keys/k1' && init?.method === 'DELETE') {
        revoked = true;
        return { status: 200, body: record({ revokedAt: '2026-11-05T00:00:00.000Z' }) };
      }
      if (url === '/api/ai/keys')
        return { status: 200, body: [record(revoked ? { revokedAt: '2026-11-05T00:00:00.000Z' } : {})] };
      return undefined;
    });
    renderAt('/dashboard/admin/api-keys', <AdminApiKeysPage />);
    const table = await screen.findByRole('table', { name: 'API keys' });
    await userEvent.click(within(table).getByRole('button', { name: 'Revoke Kiosk' }));
    const confirm = screen.getByRole('alertdialog');
    expect(within(confirm).getByText('Revoke this key? Programs using it stop working at once.')).toBeTruthy();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(within(table).getByRole('button', { name: 'Revoke Kiosk' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Key “Kiosk” revoked')).toBeTruthy();
    await waitFor(() => expect(within(table).getByText('Revoked')).toBeTruthy());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/ai/keys/k1']);
  });
});

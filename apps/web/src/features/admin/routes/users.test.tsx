import type { AdminUser } from '@atrium/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminMe, renderAt, stubFetch } from '../../../test/render';
import AdminUsersPage from './users';

afterEach(() => vi.unstubAllGlobals());

const user = (overrides: Partial<AdminUser>): AdminUser => ({
  userId: 'bob',
  id: 'id-bob',
  name: 'Bob Stone',
  email: 'bob@example.com',
  role: 'user',
  disabled: false,
  builtIn: false,
  localAccount: false,
  quotaBytes: null,
  effectiveQuotaBytes: 10 * 1024 ** 3,
  usedBytes: 2048,
  lastSignInAt: null,
  sessions: 2,
  createdAt: '2026-11-01T00:00:00.000Z',
  ...overrides,
});

describe('admin users page', () => {
  it('lists users in a table, pages with the cursor header, and searches', async () => {
    const calls = stubFetch((url) => {
      if (url === '/api/me') return { status: 200, body: adminMe };
      if (url === '/api/admin/users')
        return {
          status: 200,
          body: [
            user({ userId: 'admin', id: 'id-admin', name: 'Admin', role: 'admin', builtIn: true, usedBytes: 0 }),
            user({}),
          ],
          headers: { 'x-next-cursor': 'Ym9i' },
        };
      if (url === '/api/admin/users?cursor=Ym9i') return { status: 200, body: [user({ userId: 'carol', id: 'c' })] };
      if (url === '/api/admin/users?q=car') return { status: 200, body: [user({ userId: 'carol', id: 'c' })] };
      return undefined;
    });
    renderAt('/dashboard/admin/users', <AdminUsersPage />);
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getByText('Bob Stone')).toBeTruthy();
    expect(within(table).getByText('2.00 KB of 10.00 GB (default)')).toBeTruthy();
    // The built-in admin (who is also the signed-in admin) cannot be demoted or disabled.
    const adminRow = within(table).getByText('Admin', { selector: 'div' }).closest('tr') as HTMLElement;
    expect((within(adminRow).getByRole('button', { name: 'Remove admin' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(adminRow).getByRole('button', { name: 'Disable' }) as HTMLButtonElement).disabled).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(table).getAllByText('carol')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    await userEvent.type(screen.getByLabelText('Search users'), 'car');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/admin/users?q=car')).toBe(true));
  });

  it('makes a user an admin, disables, sets a quota and signs out everywhere; shows refusals', async () => {
    const calls = stubFetch((url, init) => {
      if (url === '/api/me') return { status: 200, body: adminMe };
      if (url === '/api/admin/users') return { status: 200, body: [user({})] };
      if (url === '/api/admin/users/bob/sessions') return { status: 200, body: { revoked: 2 } };
      if (url === '/api/admin/users/bob' && init?.method === 'PATCH') {
        const body = JSON.parse(String(init.body)) as { disabled?: boolean };
        if (body.disabled)
          return { status: 409, body: { error: { code: 'CONFLICT', message: 'Refused for a reason.' } } };
        return { status: 200, body: user({ role: 'admin' }) };
      }
      return undefined;
    });
    renderAt('/dashboard/admin/users', <AdminUsersPage />);
    const row = (await screen.findByRole('table', { name: 'Users' })).querySelector('tbody tr') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: 'Make admin' }));
    expect(await screen.findByText('Bob Stone is now an admin')).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Refused for a reason.')).toBeTruthy();
    await userEvent.type(within(row).getByLabelText('Quota (MB)'), '5');
    await userEvent.click(within(row).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Quota of Bob Stone saved')).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText('Signed Bob Stone out of 2 session(s)')).toBeTruthy();
    const patches = calls.filter((c) => c.method === 'PATCH').map((c) => c.body);
    expect(patches).toEqual([{ role: 'admin' }, { disabled: true }, { quotaBytes: 5 * 1024 * 1024 }]);
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/admin/users/bob/sessions')).toBe(true);
  });

  it('transfers the files of a disabled user after a confirmation naming both people', async () => {
    const calls = stubFetch((url, init) => {
      if (url === '/api/me') return { status: 200, body: adminMe };
      if (url === '/api/admin/users')
        return {
          status: 200,
          body: [user({ disabled: true }), user({ userId: 'rita', id: 'id-rita', name: 'Rita Reed' })],
        };
      if (url === '/api/admin/users/bob/transfer' && init?.method === 'POST')
        return {
          status: 200,
          body: {
            from: 'bob',
            to: 'rita',
            folderId: 'f1',
            folderName: 'From Bob Stone',
            files: 3,
            folders: 1,
            bytes: 9,
          },
        };
      return undefined;
    });
    renderAt('/dashboard/admin/users', <AdminUsersPage />);
    const table = await screen.findByRole('table', { name: 'Users' });
    const [bobRow, ritaRow] = [...table.querySelectorAll('tbody tr')] as HTMLElement[];
    // Only a disabled user's files can be transferred.
    expect(within(ritaRow as HTMLElement).queryByRole('button', { name: 'Transfer files…' })).toBeNull();
    await userEvent.click(within(bobRow as HTMLElement).getByRole('button', { name: 'Transfer files…' }));
    await userEvent.type(await screen.findByLabelText('User id of the recipient'), 'rita');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Transfer files?' });
    expect(confirm.textContent).toContain('Bob Stone (bob)');
    expect(confirm.textContent).toContain('Rita Reed (rita)');
    expect(calls.some((c) => c.url.endsWith('/transfer'))).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Transfer files' }));
    expect(
      await screen.findByText('Moved 3 file(s) and 1 folder(s) of Bob Stone to rita, in "From Bob Stone"'),
    ).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/admin/users/bob/transfer').map((c) => c.body)).toEqual([
      { toUserId: 'rita' },
    ]);
  });
});

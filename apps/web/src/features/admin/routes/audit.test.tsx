import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt, stubFetch } from '../../../test/render';
import AdminAuditPage from './audit';

afterEach(() => vi.unstubAllGlobals());

const entry = (id: string, action: string, target: string) => ({
  id,
  at: '2026-11-24T10:00:00.000Z',
  actor: 'admin',
  action,
  target,
  ip: '127.0.0.1',
  userAgent: 'x',
  requestId: 'r',
  details: { from: 'user', to: 'admin' },
});

describe('admin audit page', () => {
  it('shows entries, filters by action and builds the CSV link with the same filters', async () => {
    const calls = stubFetch((url) => {
      if (url === '/api/admin/audit')
        return { status: 200, body: { entries: [entry('1', 'user.role_changed', 'user:bob')], nextCursor: 'abc' } };
      if (url === '/api/admin/audit?cursor=abc')
        return { status: 200, body: { entries: [entry('2', 'auth.sign_in', 'user:admin')], nextCursor: null } };
      if (url === '/api/admin/audit?action=auth.sign_in')
        return { status: 200, body: { entries: [entry('2', 'auth.sign_in', 'user:admin')], nextCursor: null } };
      return undefined;
    });
    renderAt('/dashboard/admin/audit', <AdminAuditPage />);
    const table = await screen.findByRole('table', { name: 'Audit entries' });
    expect(within(table).getByText('user.role_changed')).toBeTruthy();
    expect(within(table).getByText('{"from":"user","to":"admin"}')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(table).getByText('auth.sign_in')).toBeTruthy());

    await userEvent.selectOptions(screen.getByLabelText('Action'), 'auth.sign_in');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/admin/audit?action=auth.sign_in')).toBe(true));
    expect(screen.getByRole('link', { name: 'CSV' }).getAttribute('href')).toBe(
      '/api/admin/audit.csv?action=auth.sign_in',
    );
  });

  it('sends a date range as whole local days: from the first day’s start to the start of the day after the last', async () => {
    const calls = stubFetch((url) =>
      url.startsWith('/api/admin/audit') ? { status: 200, body: { entries: [], nextCursor: null } } : undefined,
    );
    renderAt('/dashboard/admin/audit', <AdminAuditPage />);
    fireEvent.change(await screen.findByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-02' } });
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    const from = encodeURIComponent(new Date(2026, 10, 1).toISOString());
    const to = encodeURIComponent(new Date(2026, 10, 3).toISOString());
    await waitFor(() => expect(calls.some((c) => c.url === `/api/admin/audit?from=${from}&to=${to}`)).toBe(true));
    expect(screen.getByRole('link', { name: 'CSV' }).getAttribute('href')).toBe(
      `/api/admin/audit.csv?from=${from}&to=${to}`,
    );
  });

  it('shows the server refusal', async () => {
    stubFetch(() => ({
      status: 403,
      body: { error: { code: 'FORBIDDEN', message: 'Only admins can read the audit log.' } },
    }));
    renderAt('/dashboard/admin/audit', <AdminAuditPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Only admins can read the audit log.');
  });
});

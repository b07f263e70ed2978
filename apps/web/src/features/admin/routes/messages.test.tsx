import type { ContactMessage } from '@atrium/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt, stubFetch } from '../../../test/render';
import AdminMessagesPage from './messages';

afterEach(() => vi.unstubAllGlobals());

const message = (overrides: Partial<ContactMessage>): ContactMessage => ({
  id: 'm1',
  name: 'Ada Lovelace',
  email: 'ada@example.test',
  message: 'Do you offer a discount?',
  createdAt: '2026-11-02T10:00:00.000Z',
  readAt: null,
  handledAt: null,
  ...overrides,
});

/** A tiny server: the list, PATCH and DELETE on its messages. */
function contactServer(initial: ContactMessage[]) {
  let messages = initial;
  const calls = stubFetch((url, init) => {
    if (url === '/api/contact') return { status: 200, body: messages };
    const id = /^\/api\/contact\/(.+)$/.exec(url)?.[1];
    const found = messages.find((m) => m.id === id);
    if (!found) return undefined;
    if (init?.method === 'PATCH') {
      const patch = JSON.parse(String(init.body)) as { read?: boolean; handled?: boolean };
      const at = '2026-11-03T00:00:00.000Z';
      const next = {
        ...found,
        ...(patch.read !== undefined ? { readAt: patch.read ? at : null } : {}),
        ...(patch.handled !== undefined ? { handledAt: patch.handled ? at : null, readAt: found.readAt ?? at } : {}),
      };
      messages = messages.map((m) => (m.id === id ? next : m));
      return { status: 200, body: next };
    }
    if (init?.method === 'DELETE') {
      messages = messages.filter((m) => m.id !== id);
      return { status: 200, body: { id, deleted: true } };
    }
    return undefined;
  });
  return calls;
}

describe('admin messages page', () => {
  it('lists messages in the order the server gives (newest first) with unread and handled marks', async () => {
    contactServer([
      message({ id: 'm2', name: 'Grace', message: 'Hello!', createdAt: '2026-11-03T10:00:00.000Z' }),
      message({ readAt: '2026-11-02T11:00:00.000Z', handledAt: '2026-11-02T12:00:00.000Z' }),
    ]);
    renderAt('/dashboard/admin/messages', <AdminMessagesPage />);
    const list = await screen.findByRole('list', { name: 'Messages' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
      'Message from Grace',
      'Message from Ada Lovelace',
    ]);
    const [grace, ada] = items as [HTMLElement, HTMLElement];
    expect(within(grace).getByText('New')).toBeTruthy();
    expect(within(grace).getByRole('button', { name: 'Mark read' })).toBeTruthy();
    expect(within(grace).getByRole('link', { name: 'ada@example.test' }).getAttribute('href')).toBe(
      'mailto:ada@example.test',
    );
    expect(within(ada).queryByText('New')).toBeNull();
    expect(within(ada).getByText('Handled')).toBeTruthy();
    expect(within(ada).getByRole('button', { name: 'Reopen' })).toBeTruthy();
    expect(screen.getByText(/1 unread\./)).toBeTruthy();
  });

  it('marks a message read, then handled, sending the PATCH bodies', async () => {
    const calls = contactServer([message({})]);
    renderAt('/dashboard/admin/messages', <AdminMessagesPage />);
    const item = await screen.findByRole('listitem', { name: 'Message from Ada Lovelace' });
    await userEvent.click(within(item).getByRole('button', { name: 'Mark read' }));
    expect(await screen.findByText('Marked as read')).toBeTruthy();
    await waitFor(() => expect(within(item).queryByText('New')).toBeNull());
    await userEvent.click(within(item).getByRole('button', { name: 'Mark handled' }));
    expect(await screen.findByText('Marked as handled')).toBeTruthy();
    await waitFor(() => expect(within(item).getByText('Handled')).toBeTruthy());
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => [c.url, c.body])).toEqual([
      ['/api/contact/m1', { read: true }],
      ['/api/contact/m1', { handled: true }],
    ]);
  });

  it('deletes only after the confirmation, then shows the empty state', async () => {
    const calls = contactServer([message({})]);
    renderAt('/dashboard/admin/messages', <AdminMessagesPage />);
    const item = await screen.findByRole('listitem', { name: 'Message from Ada Lovelace' });
    await userEvent.click(within(item).getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('alertdialog');
    expect(within(confirm).getByText('Delete this message? This cannot be undone.')).toBeTruthy();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(item).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Message deleted')).toBeTruthy();
    expect(
      await screen.findByText('No messages yet. Messages sent through the contact form appear here.'),
    ).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/contact/m1']);
  });

  it('shows a refusal from the server', async () => {
    stubFetch((url) =>
      url === '/api/contact'
        ? { status: 403, body: { error: { code: 'FORBIDDEN', message: 'Only admins can read contact messages.' } } }
        : undefined,
    );
    renderAt('/dashboard/admin/messages', <AdminMessagesPage />);
    expect((await screen.findByRole('alert')).textContent).toBe('Only admins can read contact messages.');
  });
});

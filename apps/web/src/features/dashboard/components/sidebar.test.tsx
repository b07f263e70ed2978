import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { me } from '../../../test/render';
import { Sidebar } from './sidebar';

const user = me({ email: null, firstLogin: false });

function renderSidebar() {
  render(
    <MemoryRouter initialEntries={['/dashboard']}>
      <Sidebar me={user} unreadCount={0} onLogout={() => {}} collapsed={false} />
    </MemoryRouter>,
  );
  return (query: string) => fireEvent.change(screen.getByLabelText('Search menu'), { target: { value: query } });
}

const visibleLinks = () =>
  screen
    .queryAllByRole('link')
    .map((link) => link.textContent)
    // The pages: not the home link, nor the files search the box also offers (tested below).
    .filter((text) => text !== 'Atrium' && !text?.startsWith('Search files for'));

describe('sidebar search', () => {
  it('also offers to search the files for the text, on the search page', () => {
    const search = renderSidebar();
    expect(screen.queryByRole('link', { name: /Search files for/ })).toBeNull();
    search('  budget q3 ');
    const link = screen.getByRole('link', { name: 'Search files for “budget q3”' });
    expect(link.getAttribute('href')).toBe('/dashboard/search?q=budget%20q3');
  });

  it('filters the four main entries as before', () => {
    const search = renderSidebar();
    search('prof');
    expect(visibleLinks()).toEqual(['Profile']);
  });

  it('finds a page inside a closed group and opens that group', () => {
    const search = renderSidebar();
    expect(screen.getByRole('button', { name: 'Files' }).getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Upload' })).toBeNull();

    search('upload');
    expect(visibleLinks()).toEqual(['Upload']);
    expect(screen.getByRole('button', { name: 'Files' }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.queryByText('No matching pages.')).toBeNull();

    search('FACE');
    expect(visibleLinks()).toEqual(['Face Detection']);
    expect(screen.getByRole('button', { name: 'AI Services' }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.queryByRole('button', { name: 'Files' })).toBeNull();
  });

  it('keeps one group open at a time when several groups match, and says when nothing matches', () => {
    const search = renderSidebar();
    search('i'); // matches in Main, Files and AI Services
    const files = screen.getByRole('button', { name: 'Files' });
    const ai = screen.getByRole('button', { name: 'AI Services' });
    expect(files.getAttribute('aria-expanded')).toBe('true');
    expect(ai.getAttribute('aria-expanded')).toBe('false');
    expect(visibleLinks()).toEqual([
      'Files',
      'Activity',
      'Profile',
      'Notifications',
      'AI Assistant',
      'My files (personal)',
      'Shared with me',
      'List',
      'Preview',
      'File Stats',
    ]);
    fireEvent.click(ai);
    expect(files.getAttribute('aria-expanded')).toBe('false');
    expect(visibleLinks()).toEqual([
      'Files',
      'Activity',
      'Profile',
      'Notifications',
      'AI Assistant',
      'Face Detection',
      'Image Analysis',
    ]);

    search('zzz');
    expect(screen.getByText('No matching pages.')).toBeTruthy();
    search('');
    expect(within(screen.getByRole('list', { name: 'Main' })).getAllByRole('link')).toHaveLength(8);
  });
});

describe('sidebar admin badges', () => {
  it('shows the unread count next to Messages in the Admin group, and no badge at zero', () => {
    const { rerender } = render(
      <MemoryRouter initialEntries={['/dashboard/admin/messages']}>
        <Sidebar
          me={{ ...user, role: 'admin', isAdmin: true }}
          unreadCount={0}
          itemBadges={{ '/dashboard/admin/messages': 3 }}
          onLogout={() => {}}
          collapsed={false}
        />
      </MemoryRouter>,
    );
    const messages = screen.getByRole('link', { name: /Messages/ });
    expect(messages.getAttribute('href')).toBe('/dashboard/admin/messages');
    expect(messages.textContent).toBe('Messages3 unread');
    expect(screen.getByRole('link', { name: 'API keys' }).getAttribute('href')).toBe('/dashboard/admin/api-keys');
    rerender(
      <MemoryRouter initialEntries={['/dashboard/admin/messages']}>
        <Sidebar
          me={{ ...user, role: 'admin', isAdmin: true }}
          unreadCount={0}
          itemBadges={{ '/dashboard/admin/messages': 0 }}
          onLogout={() => {}}
          collapsed={false}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Messages' }).textContent).toBe('Messages');
  });
});

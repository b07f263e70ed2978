import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LoadMore } from './load-more';

const query = (over: Partial<{ hasNextPage: boolean; isFetchingNextPage: boolean }> = {}) => ({
  hasNextPage: true,
  isFetchingNextPage: false,
  fetchNextPage: vi.fn(() => Promise.resolve()),
  ...over,
});

describe('LoadMore', () => {
  it('fetches the next page when clicked', async () => {
    const pages = query();
    render(<LoadMore query={pages} />);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(pages.fetchNextPage).toHaveBeenCalledTimes(1);
  });

  it('says "Loading…" and takes no click while the page comes; is gone when there is no next page', () => {
    const { rerender } = render(<LoadMore query={query({ isFetchingNextPage: true })} label="Show more" />);
    const button = screen.getByRole('button', { name: 'Loading…' });
    expect(button.hasAttribute('disabled')).toBe(true);
    rerender(<LoadMore query={query()} label="Show more" />);
    expect(screen.getByRole('button', { name: 'Show more' })).toBeTruthy();
    rerender(<LoadMore query={query({ hasNextPage: false })} />);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('sits centred in a row of its own when asked', () => {
    const { container } = render(<LoadMore query={query()} centred />);
    expect(container.firstElementChild?.className).toBe('flex justify-center');
    expect(container.querySelector('button')?.parentElement).toBe(container.firstElementChild);
  });
});

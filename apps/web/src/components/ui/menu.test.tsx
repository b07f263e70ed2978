import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Menu, placeMenu } from './menu';

const view = { width: 390, height: 844 };
const size = { width: 192, height: 300 };

describe('placeMenu', () => {
  it('opens below the button, right edges aligned, when it fits', () => {
    expect(placeMenu({ top: 100, bottom: 136, left: 340, right: 376 }, size, view)).toEqual({
      top: 140,
      left: 376 - 192,
      maxHeight: 844 - 136 - 4 - 8,
    });
  });

  it('flips upward near the bottom edge, so every item stays on screen', () => {
    const placed = placeMenu({ top: 780, bottom: 816, left: 340, right: 376 }, size, view);
    expect(placed.top).toBe(780 - 4 - 300);
    expect(placed.top + size.height).toBeLessThanOrEqual(780);
  });

  it('stays inside the viewport horizontally (a pointer near the right edge, a button near the left)', () => {
    expect(placeMenu({ top: 10, bottom: 10, left: 380, right: 380 }, size, view, 'left').left).toBe(390 - 192 - 8);
    expect(placeMenu({ top: 10, bottom: 46, left: 0, right: 40 }, size, view).left).toBe(8);
  });

  it('scrolls (maxHeight) when it fits neither way, on the side with more room', () => {
    const placed = placeMenu({ top: 300, bottom: 336, left: 0, right: 40 }, { width: 192, height: 900 }, view);
    expect(placed).toMatchObject({ top: 340, maxHeight: 844 - 336 - 12 });
  });
});

describe('Menu', () => {
  const items = (onRename = vi.fn()) => [
    { label: 'Open', href: '/somewhere' },
    { label: 'Rename', onSelect: onRename },
    { label: 'Delete', onSelect: vi.fn(), danger: true },
  ];

  it('renders the open menu in a layer above the page, outside the clipping container', async () => {
    render(
      <div data-testid="card" style={{ overflow: 'hidden' }}>
        <Menu label="Actions for a.txt" items={items()} />
      </div>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Actions for a.txt' }));
    const menu = screen.getByRole('menu', { name: 'Actions for a.txt' });
    expect(screen.getByTestId('card').contains(menu)).toBe(false);
    expect(menu.parentElement).toBe(document.body);
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Open' }));
  });

  it('moves with arrows, Home and End; Escape closes it and focus returns to the button', async () => {
    const onRename = vi.fn();
    render(<Menu label="Actions" items={items(onRename)} />);
    const button = screen.getByRole('button', { name: 'Actions' });
    button.focus();
    await userEvent.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Delete' }));
    await userEvent.keyboard('{Home}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Open' }));
    await userEvent.keyboard('{End}{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Open' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);

    await userEvent.click(button);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Rename' }));
    expect(onRename).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('closes on a click elsewhere, and follows its button when the page scrolls', async () => {
    render(
      <>
        <p>Elsewhere</p>
        <Menu label="Actions" items={items()} />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Actions' }));
    await userEvent.click(screen.getByText('Elsewhere'));
    expect(screen.queryByRole('menu')).toBeNull();
    const button = screen.getByRole('button', { name: 'Actions' });
    await userEvent.click(button);
    vi.spyOn(button, 'getBoundingClientRect').mockReturnValue(new DOMRect(100, 300, 36, 36));
    fireEvent.scroll(document);
    // Still open, placed again under the button where it now is.
    expect(screen.getByRole('menu').style.top).toBe('340px');
  });

  it('opens the same menu at the pointer on a right-click of its row', () => {
    render(
      <table>
        <tbody>
          <tr data-testid="row">
            <td>a.txt</td>
            <td>
              <Menu label="Actions for a.txt" items={items()} contextArea="tr" />
            </td>
          </tr>
        </tbody>
      </table>,
    );
    const opened = fireEvent.contextMenu(screen.getByText('a.txt'), { clientX: 120, clientY: 200 });
    // The browser's own menu is not shown.
    expect(opened).toBe(false);
    const menu = screen.getByRole('menu', { name: 'Actions for a.txt' });
    expect(menu.style.left).toBe('120px');
    expect(menu.style.top).toBe('204px');
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent?.trim())).toEqual([
      'Open',
      'Rename',
      'Delete',
    ]);
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';
import { Dialog } from './dialog';
import { Menu } from './menu';
import { TextField } from './text-field';

function Harness({ onClose }: { onClose: () => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open it
      </button>
      <Dialog
        open={open}
        title="Name it"
        description="Pick a good one."
        onClose={() => {
          onClose();
          setOpen(false);
        }}
        footer={<button type="button">Save</button>}
      >
        <TextField label="Name" value={name} onChange={setName} error={name === 'x' ? 'Too short.' : null} />
      </Dialog>
    </>
  );
}

describe('Dialog', () => {
  it('focuses its field, keeps Tab inside both ways, closes on Escape and gives focus back', async () => {
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const opener = screen.getByRole('button', { name: 'Open it' });
    await userEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Name it' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(screen.getByRole('dialog', { description: 'Pick a good one.' })).toBe(dialog);
    const field = screen.getByLabelText('Name');
    expect(document.activeElement).toBe(field);

    await userEvent.tab(); // Save, the last
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save' }));
    await userEvent.tab(); // wraps to the first: the close button
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    await userEvent.tab({ shift: true }); // and back to the last
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save' }));

    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('as a bottom sheet: autofocuses [data-autofocus] and leaves a nested confirmation its own Escape', async () => {
    const onClose = vi.fn();
    const onCancel = vi.fn();
    render(
      <Dialog open title="Share it" description="File" onClose={onClose} size="lg" variant="sheet">
        <button type="button">Other</button>
        <input aria-label="Search" data-autofocus />
        <ConfirmDialog
          open
          title="Sure?"
          message="Really."
          confirmLabel="Yes"
          onConfirm={() => undefined}
          onCancel={onCancel}
        />
      </Dialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Share it' });
    expect(dialog.className).toContain('rounded-t-2xl');
    expect(dialog.className).toContain('max-w-2xl');
    expect(document.activeElement).toBe(screen.getByLabelText('Search'));

    screen.getByRole('button', { name: 'Cancel' }).focus();
    await userEvent.keyboard('{Escape}'); // in the confirmation: only the confirmation handles it
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();

    const search = screen.getByLabelText('Search');
    search.focus();
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('marks a field invalid and announces its error', async () => {
    render(<Harness onClose={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Open it' }));
    await userEvent.type(screen.getByLabelText('Name'), 'x');
    const field = screen.getByLabelText('Name');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Too short.');
    expect(field.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
  });
});

describe('Menu', () => {
  it('opens on ArrowUp at the last item, runs an action and returns focus to its button', async () => {
    const onRename = vi.fn();
    render(
      <Menu
        label="Actions for a.txt"
        items={[
          { label: 'Download', href: '/a.txt', download: 'a.txt' },
          { label: 'Rename', onSelect: onRename },
        ]}
      />,
    );
    const button = screen.getByRole('button', { name: 'Actions for a.txt' });
    button.focus();
    await userEvent.keyboard('{ArrowUp}');
    expect(document.activeElement?.textContent?.trim()).toBe('Rename');
    await userEvent.keyboard('{Home}');
    expect(document.activeElement?.getAttribute('href')).toBe('/a.txt');
    await userEvent.keyboard('{End}{Enter}');
    expect(onRename).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });
});

import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { uploadsReducer, type UploadItem } from '../lib/browser-logic';
import { UploadList } from './upload-list';

const queued = (key: string, name: string, size = 10): UploadItem => ({ key, name, size, loaded: 0, status: 'queued' });

describe('the upload queue (docs/PRODUCT.md#upload-queue)', () => {
  it('names a file as stored once the server answered, and folds into a tray when all are uploaded', async () => {
    let items = uploadsReducer([], { type: 'add', items: [queued('a', 'Notes/brief.txt'), queued('b', 'x.txt')] });
    items = uploadsReducer(items, { type: 'done', key: 'a', storedName: 'brief (1).txt' });
    const onClear = vi.fn();
    const { rerender } = render(<UploadList items={items} onClear={onClear} />);
    const region = screen.getByRole('region', { name: 'Uploads' });
    expect(within(region).getByTitle('Notes/brief (1).txt')).toBeTruthy();
    expect(within(region).getByTestId('upload-total').textContent).toContain('1 of 2 uploaded');

    items = uploadsReducer(items, { type: 'done', key: 'b' });
    rerender(<UploadList items={items} onClear={onClear} />);
    const tray = screen.getByRole('region', { name: 'Uploads' });
    expect(within(tray).getByTestId('upload-total').textContent).toBe('2 of 2 uploaded: Notes/brief (1).txt, x.txt');
    expect(within(tray).queryAllByRole('progressbar')).toEqual([]);
    await userEvent.click(within(tray).getByRole('button', { name: 'Show' }));
    expect(screen.getAllByTestId('upload-status').map((node) => node.textContent)).toEqual(['Uploaded', 'Uploaded']);
    await userEvent.click(screen.getByRole('button', { name: 'Hide' }));
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onClear).toHaveBeenCalledOnce();
  });

  it('shows a refusal red, without a full bar above it, and leaves it out of the total', () => {
    let items = uploadsReducer([], { type: 'add', items: [queued('a', 'big.bin', 100), queued('b', 'ok.txt', 10)] });
    items = uploadsReducer(items, { type: 'start', key: 'a' });
    items = uploadsReducer(items, { type: 'progress', key: 'a', loaded: 100 });
    items = uploadsReducer(items, { type: 'failed', key: 'a', error: 'Your storage is full (200.00 KB).' });
    items = uploadsReducer(items, { type: 'done', key: 'b' });
    render(<UploadList items={items} onClear={() => undefined} onRetry={() => undefined} />);
    const region = screen.getByRole('region', { name: 'Uploads' });
    expect(within(region).getByRole('alert').textContent).toBe('Your storage is full (200.00 KB).');
    expect(within(region).queryByRole('progressbar', { name: 'Upload of big.bin' })).toBeNull();
    const status = within(region).getAllByTestId('upload-status')[0];
    expect(status?.textContent).toBe('Failed');
    expect(status?.className).toContain('text-red-700');
    expect(within(region).getByTestId('upload-total').textContent).toContain('1 of 2 uploaded · 1 failed');
    expect(within(region).getByTestId('upload-total').textContent).toContain('10 Bytes of 10 Bytes');
    expect(within(region).getByRole('button', { name: 'Retry upload of big.bin' })).toBeTruthy();
  });
});

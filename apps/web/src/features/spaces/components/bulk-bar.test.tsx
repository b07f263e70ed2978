import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastContainer } from 'react-toastify/unstyled';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../test/file-browser-fixtures';
import { BulkBar } from './bulk-bar';

afterEach(() => vi.unstubAllGlobals());

const LOCKED = '“plan.txt” is locked by Hal Holder, who is editing it in another app. Try again later.';

describe('bulk bar', () => {
  it('says how many items could not be deleted and why: a file locked in another app', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input).endsWith('/f-locked')
          ? json(423, {
              error: { code: 'LOCKED', message: LOCKED, details: [{ path: 'file:f-locked', message: LOCKED }] },
            })
          : json(200, { id: 'f-free', deleted: true }),
      ),
    );
    const onClear = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <BulkBar keys={new Set(['file:f-free', 'file:f-locked'])} canWrite onClear={onClear} onMove={() => undefined} />
        <ToastContainer />
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: /Delete/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete 2 items?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(`1 of 2 could not be deleted: ${LOCKED}`)).toBeTruthy();
    expect(onClear).toHaveBeenCalled();
  });
});

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { ToastContainer } from 'react-toastify/unstyled';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FilePreviewCard } from './file-preview-card';
import { FileTable } from './file-table';
import { UploadPanel } from './upload-panel';

const uploadAnyFile = vi.hoisted(() => vi.fn());
vi.mock('../api/upload', () => ({ uploadAnyFile }));

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      {children}
      <ToastContainer />
    </QueryClientProvider>,
  );
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('UploadPanel', () => {
  it('asks for a file before uploading', async () => {
    wrap(<UploadPanel userId="alice" />);
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('Please select a file first')).toBeTruthy();
    expect(screen.getByText('No file selected')).toBeTruthy();
  });

  it('shows percentage and speed while sending, then that the server is saving the file', async () => {
    let report: (progress: { loaded: number; total: number; bytesPerSecond: number }) => void = () => {};
    let finish: () => void = () => {};
    uploadAnyFile.mockImplementation(
      (_file: File, _userId: string, options: { onProgress: typeof report }) =>
        new Promise<void>((resolve) => {
          report = options.onProgress;
          finish = resolve;
        }),
    );
    wrap(<UploadPanel userId="alice" />);
    await userEvent.upload(screen.getByLabelText('Choose a file'), new File(['x'.repeat(2048)], 'notes.txt'));
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    const text = await screen.findByTestId('upload-progress');
    expect(text.textContent).toBe('0% · starting…');
    act(() => report({ loaded: 1024, total: 2048, bytesPerSecond: 2048 }));
    expect(text.textContent).toBe('50% · 2.00 KB/s');
    expect(screen.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')).toBe('50');
    act(() => report({ loaded: 2048, total: 2048, bytesPerSecond: 2048 }));
    expect(text.textContent).toBe('100% · Saving…');
    act(() => finish());
    expect(await screen.findByText('File uploaded successfully!')).toBeTruthy();
    expect(screen.queryByTestId('upload-progress')).toBeNull();
  });
});

describe('FileTable', () => {
  it('shows the empty state', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, [])),
    );
    wrap(<FileTable userId="alice" />);
    expect(await screen.findByText('No files uploaded yet.')).toBeTruthy();
  });

  it('shows files with sizes in Bytes/KB/MB, and the error state', async () => {
    const file = {
      id: 'f1',
      fileId: 'f1',
      fileName: 'song.mp3',
      size: 5 * 1024 * 1024,
      contentType: 'audio/mpeg',
      uploadDate: '2026-11-21T10:00:00.000Z',
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, [file])),
    );
    const { unmount } = wrap(<FileTable userId="alice" />);
    const row = await screen.findByRole('row', { name: /song\.mp3/ });
    expect(row.textContent).toContain('5.00 MB');
    expect(row.textContent).toContain('audio/mpeg');
    unmount();

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(403, { error: { code: 'FORBIDDEN', message: 'No.' } })),
    );
    wrap(<FileTable userId="bob" />);
    expect(await screen.findByText('Could not load files.')).toBeTruthy();
  });
});

describe('FilePreviewCard', () => {
  it.each([
    [1, '1 Byte', '1 byte'],
    [512, '512 Bytes', '512 bytes'],
    [20_000_000, '19.07 MB', '20,000,000 bytes'],
  ])('shows %d bytes as %s with the exact count in a tooltip', (size, shown, exact) => {
    wrap(
      <FilePreviewCard
        file={{
          id: 'b1',
          fileId: 'b1',
          fileName: 'big.bin',
          size,
          contentType: 'application/octet-stream',
          uploadDate: '2026-11-21T10:00:00.000Z',
        }}
      />,
    );
    expect(screen.getByTitle(exact).textContent).toBe(shown);
  });

  it('toggles open and closed and shows the size in KB and a media preview', async () => {
    wrap(
      <FilePreviewCard
        file={{
          id: 'v1',
          fileId: 'v1',
          fileName: 'clip.mp4',
          size: 2048,
          contentType: 'video/mp4',
          uploadDate: '2026-11-21T10:00:00.000Z',
        }}
      />,
    );
    const toggle = screen.getByRole('button', { name: /clip\.mp4/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.textContent).toContain('2.00 KB');
    expect(screen.getByTitle('2,048 bytes').textContent).toBe('2.00 KB');
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const video = document.querySelector('video');
    expect(video?.getAttribute('src')).toBe('/api/files/download/v1?inline=1');
    await userEvent.click(toggle);
    await waitFor(() => expect(document.querySelector('video')).toBeNull());
  });
});

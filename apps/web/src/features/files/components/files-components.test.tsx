import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, wrap } from '../test-utils';
import { ApiError } from '../../../lib/api-client';
import { FilePreviewCard } from './file-preview-card';
import { FileTable } from './file-table';
import { UploadPanel } from './upload-panel';

const uploadAnyFile = vi.hoisted(() => vi.fn());
vi.mock('../api/upload', () => ({ uploadAnyFile }));

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
    expect(screen.getByRole('progressbar', { name: 'Upload progress: notes.txt' }).getAttribute('aria-valuenow')).toBe(
      '50',
    );
    act(() => report({ loaded: 2048, total: 2048, bytesPerSecond: 2048 }));
    expect(text.textContent).toBe('100% · Saving…');
    act(() => finish());
    expect(await screen.findByText('File uploaded successfully!')).toBeTruthy();
    expect(screen.queryByTestId('upload-progress')).toBeNull();
  });
});

describe('UploadPanel with several files', () => {
  it('uploads every chosen file in turn, each with its own state; one failure does not stop the others', async () => {
    const started: string[] = [];
    uploadAnyFile.mockImplementation(async (file: File) => {
      started.push(file.name);
      if (file.name === 'b.txt') throw new ApiError(413, 'QUOTA_EXCEEDED', 'Over quota.');
      return undefined;
    });
    wrap(<UploadPanel userId="alice" />);
    await userEvent.upload(screen.getByLabelText('Choose a file'), [
      new File(['a'], 'a.txt'),
      new File(['bb'], 'b.txt'),
      new File(['ccc'], 'c.txt'),
    ]);
    expect(screen.getByText('3 files selected (6 Bytes)')).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Uploads' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['a.txt (1 Byte)Waiting', 'b.txt (2 Bytes)Waiting', 'c.txt (3 Bytes)Waiting']);
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload' })).toBeTruthy());
    expect(started).toEqual(['a.txt', 'b.txt', 'c.txt']);
    const states = within(list)
      .getAllByTestId('upload-state')
      .map((state) => state.textContent);
    expect(states).toEqual(['Uploaded', 'Failed', 'Uploaded']);
    expect(within(list).getByRole('alert').textContent).toBe('Upload failed. Over quota.');
    expect(await screen.findByText('Failed to upload file. Please try again.')).toBeTruthy();

    // Upload again retries only what did not arrive.
    uploadAnyFile.mockClear();
    uploadAnyFile.mockResolvedValue(undefined);
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(screen.getByText('No file selected')).toBeTruthy());
    expect(uploadAnyFile.mock.calls.map(([file]) => (file as File).name)).toEqual(['b.txt']);
  });

  it('takes every dropped file, not only the first', async () => {
    uploadAnyFile.mockResolvedValue(undefined);
    wrap(<UploadPanel userId="alice" />);
    const files = [new File(['1'], 'one.txt'), new File(['2'], 'two.txt')];
    fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files } });
    expect(screen.getByText('2 files selected (2 Bytes)')).toBeTruthy();
    uploadAnyFile.mockClear();
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(screen.getByText('No file selected')).toBeTruthy());
    expect(uploadAnyFile.mock.calls.map(([file]) => (file as File).name)).toEqual(['one.txt', 'two.txt']);
    // One success toast counts both uploads instead of stacking two.
    expect(await screen.findByText('File uploaded successfully! ×2')).toBeTruthy();
    expect(screen.queryAllByText(/^File uploaded successfully!/)).toHaveLength(1);
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
      <MemoryRouter>
        <FilePreviewCard
          file={{
            id: 'b1',
            fileId: 'b1',
            fileName: 'big.bin',
            size,
            contentType: 'application/octet-stream',
            uploadDate: '2026-11-21T10:00:00.000Z',
          }}
        />
      </MemoryRouter>,
    );
    expect(screen.getByTitle(exact).textContent).toBe(shown);
  });

  it('toggles open and closed and shows the size in KB and a media preview', async () => {
    wrap(
      <MemoryRouter initialEntries={['/dashboard/file-preview']}>
        <FilePreviewCard
          file={{
            id: 'v1',
            fileId: 'v1',
            fileName: 'clip.mp4',
            size: 2048,
            contentType: 'video/mp4',
            uploadDate: '2026-11-21T10:00:00.000Z',
          }}
        />
      </MemoryRouter>,
    );
    const toggle = screen.getByRole('button', { name: /^clip\.mp4/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.textContent).toContain('2.00 KB');
    expect(screen.getByTitle('2,048 bytes').textContent).toBe('2.00 KB');
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const video = document.querySelector('video');
    expect(video?.getAttribute('src')).toBe('/api/files/download/v1?inline=1');
    // The full-screen viewer over this page.
    expect(screen.getByRole('link', { name: 'Open in viewer' }).getAttribute('href')).toBe(
      '/dashboard/file-preview?file=v1',
    );
    await userEvent.click(toggle);
    await waitFor(() => expect(document.querySelector('video')).toBeNull());
  });
});

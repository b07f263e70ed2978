import { useQueryClient } from '@tanstack/react-query';
import { UploadCloud, X } from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { toast } from 'react-toastify/unstyled';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { isApiError } from '../../../lib/api-error';
import { filesKeys, UploadCancelledError, type UploadProgress } from '../api/files-api';
import { uploadAnyFile } from '../api/upload';

type State =
  | { kind: 'idle' }
  | { kind: 'uploading'; progress: UploadProgress | null }
  | { kind: 'failed'; detail: string | null }
  | { kind: 'cancelled' };

/** Pick or drop a file, upload it with a progress bar (percentage and speed) and a cancel button. */
export function UploadPanel({ userId }: { userId: string }) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const queryClient = useQueryClient();
  const uploading = state.kind === 'uploading';

  const choose = (picked: File | null | undefined) => {
    setFile(picked ?? null);
    setState({ kind: 'idle' });
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!uploading) choose(event.dataTransfer.files[0]);
  };

  async function upload() {
    if (!file) {
      toast.error('Please select a file first');
      return;
    }
    const controller = new AbortController();
    abortRef.current = controller;
    setState({ kind: 'uploading', progress: null });
    try {
      await uploadAnyFile(file, userId, {
        signal: controller.signal,
        onProgress: (progress) => setState({ kind: 'uploading', progress }),
      });
      toast.success('File uploaded successfully!');
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
      setState({ kind: 'idle' });
      await queryClient.invalidateQueries({ queryKey: filesKeys.all });
    } catch (error) {
      if (error instanceof UploadCancelledError) {
        setState({ kind: 'cancelled' });
        return;
      }
      toast.error('Failed to upload file. Please try again.');
      setState({ kind: 'failed', detail: isApiError(error) ? error.message : null });
    } finally {
      abortRef.current = null;
    }
  }

  const progress = state.kind === 'uploading' ? state.progress : null;
  const percent =
    progress && progress.total > 0 ? Math.min(100, Math.round((progress.loaded / progress.total) * 100)) : 0;

  return (
    <section aria-labelledby={`${inputId}-title`} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={`${inputId}-title`} className="text-lg font-semibold text-slate-900">
        Upload a file
      </h2>
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="drop-zone"
        className={`mt-4 flex flex-col items-center gap-2 rounded-lg border-2 border-dashed p-6 text-center ${
          dragging ? 'border-brand-600 bg-brand-50' : 'border-slate-300'
        }`}
      >
        <UploadCloud aria-hidden="true" className="size-8 text-brand-600" />
        <p className="text-sm text-slate-600">Drag and drop a file here, or</p>
        <label
          htmlFor={inputId}
          className="cursor-pointer rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-within:outline-2 focus-within:outline-brand-600"
        >
          Choose a file
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            className="sr-only"
            disabled={uploading}
            onChange={(event) => choose(event.target.files?.[0])}
          />
        </label>
        <p className="text-sm text-slate-800" aria-live="polite">
          {file ? `${file.name} (${formatBytes(file.size)})` : 'No file selected'}
        </p>
      </div>

      {state.kind === 'uploading' && (
        <div className="mt-4">
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
          </div>
          <p className="mt-1 text-sm text-slate-600" data-testid="upload-progress">
            {percent}% ·{' '}
            {!progress
              ? 'starting…'
              : percent === 100
                ? 'Saving…' // every byte is sent; the server is storing and checking the file
                : `${formatBytes(progress.bytesPerSecond)}/s`}
          </p>
        </div>
      )}
      {state.kind === 'failed' && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          Upload failed.{state.detail ? ` ${state.detail}` : ''}
        </p>
      )}
      {state.kind === 'cancelled' && (
        <p role="status" className="mt-3 text-sm text-slate-600">
          Upload cancelled.
        </p>
      )}

      <div className="mt-4 flex gap-3">
        <button
          type="button"
          onClick={() => void upload()}
          disabled={uploading}
          className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-60"
        >
          {uploading ? 'Uploading…' : 'Upload'}
        </button>
        {uploading && (
          <button
            type="button"
            onClick={() => abortRef.current?.abort()}
            className="inline-flex items-center gap-1 rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <X aria-hidden="true" className="size-4" /> Cancel
          </button>
        )}
      </div>
    </section>
  );
}

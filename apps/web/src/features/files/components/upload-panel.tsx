import { formatBytes } from '@atrium/contracts/format-bytes';
import { useQueryClient } from '@tanstack/react-query';
import { UploadCloud, X } from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { showToast } from '../../../lib/toast';
import { isApiError } from '../../../lib/api-error';
import { queryKeys } from '../../../lib/query-keys';
import { UploadCancelledError, type UploadProgress } from '../api/files-api';
import { uploadAnyFile } from '../api/upload';

type ItemState =
  | { kind: 'waiting' }
  | { kind: 'uploading'; progress: UploadProgress | null }
  | { kind: 'done' }
  | { kind: 'failed'; detail: string | null }
  | { kind: 'cancelled' };

interface Item {
  key: number;
  file: File;
  state: ItemState;
}

const percentOf = (progress: UploadProgress | null) =>
  progress && progress.total > 0 ? Math.min(100, Math.round((progress.loaded / progress.total) * 100)) : 0;

/** One chosen file in the upload list: waiting, its progress bar (percentage and speed), done or why not. */
function UploadItem({ item }: { item: Item }) {
  const { file, state } = item;
  const progress = state.kind === 'uploading' ? state.progress : null;
  const percent = percentOf(progress);
  return (
    <li className="py-2">
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="min-w-0 truncate text-slate-800" title={file.name}>
          {`${file.name} (${formatBytes(file.size)})`}
        </span>
        <span className="shrink-0 text-xs text-slate-500" data-testid="upload-state">
          {state.kind === 'waiting'
            ? 'Waiting'
            : state.kind === 'uploading'
              ? 'Uploading'
              : state.kind === 'done'
                ? 'Uploaded'
                : state.kind === 'failed'
                  ? 'Failed'
                  : 'Cancelled'}
        </span>
      </div>
      {state.kind === 'uploading' && (
        <div className="mt-1">
          <div
            role="progressbar"
            aria-label={`Upload progress: ${file.name}`}
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
        <Alert className="mt-1">Upload failed.{state.detail ? ` ${state.detail}` : ''}</Alert>
      )}
      {state.kind === 'cancelled' && (
        <p role="status" className="mt-1 text-sm text-slate-600">
          Upload cancelled.
        </p>
      )}
    </li>
  );
}

/**
 * Pick or drop one or more files; they upload one after another, each with its own progress, and one
 * failure does not stop the others. Cancel stops the current upload and the ones still waiting; Upload
 * again retries those that failed or were cancelled.
 */
export function UploadPanel({ userId }: { userId: string }) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const nextKey = useRef(0);
  const [items, setItems] = useState<Item[]>([]);
  const [dragging, setDragging] = useState(false);
  const [uploading, setUploading] = useState(false);
  const queryClient = useQueryClient();

  const choose = (picked: FileList | null | undefined) => {
    setItems(Array.from(picked ?? [], (file) => ({ key: (nextKey.current += 1), file, state: { kind: 'waiting' } })));
  };
  const setState = (key: number, state: ItemState) =>
    setItems((current) => current.map((item) => (item.key === key ? { ...item, state } : item)));

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!uploading) choose(event.dataTransfer.files);
  };

  async function upload() {
    const queue = items.filter((item) => item.state.kind !== 'done');
    if (queue.length === 0) {
      showToast('error', 'Please select a file first');
      return;
    }
    const controller = new AbortController();
    abortRef.current = controller;
    setUploading(true);
    let allDone = true;
    for (const { key, file } of queue) {
      if (controller.signal.aborted) {
        setState(key, { kind: 'cancelled' });
        allDone = false;
        continue;
      }
      setState(key, { kind: 'uploading', progress: null });
      try {
        await uploadAnyFile(file, userId, {
          signal: controller.signal,
          onProgress: (progress) => setState(key, { kind: 'uploading', progress }),
        });
        setState(key, { kind: 'done' });
        showToast('success', 'File uploaded successfully!');
        void queryClient.invalidateQueries({ queryKey: queryKeys.files.all() });
      } catch (error) {
        allDone = false;
        if (error instanceof UploadCancelledError) {
          setState(key, { kind: 'cancelled' });
          continue;
        }
        showToast('error', 'Failed to upload file. Please try again.');
        setState(key, { kind: 'failed', detail: isApiError(error) ? error.message : null });
      }
    }
    abortRef.current = null;
    setUploading(false);
    if (allDone) {
      setItems([]);
      if (inputRef.current) inputRef.current.value = '';
    }
  }

  return (
    <section aria-labelledby={`${inputId}-title`} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={`${inputId}-title`} className="text-lg font-semibold text-slate-900">
        Upload files
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
        <p className="text-sm text-slate-600">Drag and drop files here, or</p>
        <label
          htmlFor={inputId}
          className="cursor-pointer rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-within:outline-2 focus-within:outline-brand-600"
        >
          Choose a file
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            multiple
            className="sr-only"
            disabled={uploading}
            onChange={(event) => choose(event.target.files)}
          />
        </label>
        <p className="text-sm text-slate-800" aria-live="polite">
          {items.length === 0
            ? 'No file selected'
            : `${items.length} ${items.length === 1 ? 'file' : 'files'} selected (${formatBytes(
                items.reduce((sum, item) => sum + item.file.size, 0),
              )})`}
        </p>
      </div>

      {items.length > 0 && (
        <ul aria-label="Uploads" className="mt-3 divide-y divide-slate-100">
          {items.map((item) => (
            <UploadItem key={item.key} item={item} />
          ))}
        </ul>
      )}

      <div className="mt-4 flex gap-3">
        <button type="button" onClick={() => void upload()} disabled={uploading} className={buttonClass()}>
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

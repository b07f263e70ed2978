import { formatBytes } from '@atrium/contracts/format-bytes';
import { CheckCircle2, RotateCcw, X } from 'lucide-react';
import { useState } from 'react';
import { isActive, percentOf, uploadTotals, type UploadItem } from '../lib/browser-logic';
import { Alert } from '../../../components/ui/alert';

const STATUS: Record<UploadItem['status'], string> = {
  queued: 'Waiting',
  uploading: '',
  done: 'Uploaded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/**
 * The upload queue of the open folder (docs/PRODUCT.md#upload-queue): the total (files done, bytes sent of all), then
 * one row per file (its path below the folder, the stored name once the server answered: `brief (1).txt`) with its
 * progress, **Cancel** while it waits or goes up, **Retry** after a failure or a cancel; a failure is red, without a
 * bar. When every file is uploaded the queue folds into a small tray ("3 uploaded", Show, Clear). Announced politely.
 */
export function UploadList({
  items,
  onClear,
  onCancel,
  onRetry,
}: {
  items: UploadItem[];
  onClear: () => void;
  onCancel?: (key: string) => void;
  onRetry?: (key: string) => void;
}) {
  const [expanded, setExpanded] = useState(false);
  if (items.length === 0) return null;
  const finished = items.some((item) => !isActive(item));
  const totals = uploadTotals(items);
  if (totals.done === items.length && !expanded) {
    return (
      <section
        aria-label="Uploads"
        className="flex items-center gap-2 rounded-xl border border-slate-200 bg-white px-3 py-2 text-sm"
      >
        <CheckCircle2 className="size-4 shrink-0 text-emerald-700" aria-hidden="true" />
        <span className="min-w-0 flex-1 truncate text-slate-800" role="status" data-testid="upload-total">
          <span className="font-medium">
            {totals.done} of {items.length} uploaded
          </span>
          <span className="text-slate-600">: {items.map((item) => item.name).join(', ')}</span>
        </span>
        <button
          type="button"
          onClick={() => setExpanded(true)}
          aria-expanded={false}
          className="rounded px-2 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          Show
        </button>
        <button
          type="button"
          onClick={onClear}
          className="rounded px-2 py-1 text-xs font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          Clear
        </button>
      </section>
    );
  }
  const totalPercent = totals.size === 0 ? 100 : Math.floor((totals.loaded / totals.size) * 100);
  return (
    <section aria-label="Uploads" className="rounded-xl border border-slate-200 bg-white p-3">
      <div className="mb-2 flex items-center justify-between gap-2 text-sm" data-testid="upload-total">
        <span className="font-medium text-slate-800">
          {totals.done} of {items.length} uploaded
          {totals.failed > 0 ? ` · ${totals.failed} failed` : ''}
        </span>
        <span className="shrink-0 text-xs text-slate-600">
          {formatBytes(totals.loaded)} of {formatBytes(totals.size)}
        </span>
      </div>
      <progress className="mb-3 h-2 w-full accent-brand-600" max={100} value={totalPercent} aria-label="All uploads" />
      <ul className="max-h-72 space-y-2 overflow-y-auto" aria-live="polite">
        {items.map((item) => (
          <li key={item.key} className="min-w-0 text-sm">
            <div className="flex items-center justify-between gap-2">
              <span className="min-w-0 truncate font-medium text-slate-800" title={item.name}>
                {item.name}
              </span>
              <span className="flex shrink-0 items-center gap-1">
                <span
                  className={`text-xs ${item.status === 'failed' ? 'text-red-700' : 'text-slate-600'}`}
                  data-testid="upload-status"
                >
                  {item.status === 'uploading'
                    ? `${percentOf(item)}% of ${formatBytes(item.size)}`
                    : STATUS[item.status]}
                </span>
                {onCancel && isActive(item) && (
                  <button
                    type="button"
                    onClick={() => onCancel(item.key)}
                    aria-label={`Cancel upload of ${item.name}`}
                    className="rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
                  >
                    <X className="size-3.5" aria-hidden="true" />
                  </button>
                )}
                {onRetry && (item.status === 'failed' || item.status === 'cancelled') && (
                  <button
                    type="button"
                    onClick={() => onRetry(item.key)}
                    aria-label={`Retry upload of ${item.name}`}
                    className="rounded p-1 text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
                  >
                    <RotateCcw className="size-3.5" aria-hidden="true" />
                  </button>
                )}
              </span>
            </div>
            {item.status !== 'failed' && (
              <progress
                className="mt-1 h-1.5 w-full accent-brand-600"
                max={100}
                value={percentOf(item)}
                aria-label={`Upload of ${item.name}`}
              />
            )}
            {item.error && item.status === 'failed' && <Alert size="xs">{item.error}</Alert>}
          </li>
        ))}
      </ul>
      <div className="mt-2 flex gap-3">
        {finished && (
          <button type="button" onClick={onClear} className="text-xs font-medium text-brand-700 hover:underline">
            Clear finished
          </button>
        )}
        {expanded && (
          <button
            type="button"
            onClick={() => setExpanded(false)}
            aria-expanded={true}
            className="text-xs font-medium text-brand-700 hover:underline"
          >
            Hide
          </button>
        )}
      </div>
    </section>
  );
}

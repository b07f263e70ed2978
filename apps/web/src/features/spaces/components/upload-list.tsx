import { formatBytes } from '@atrium/contracts/format-bytes';
import { percentOf, type UploadItem } from '../lib/browser-logic';

/** Uploads of the open folder, one row per file with its progress (announced politely). */
export function UploadList({ items, onClear }: { items: UploadItem[]; onClear: () => void }) {
  if (items.length === 0) return null;
  const finished = items.some((item) => item.status !== 'uploading');
  return (
    <section aria-label="Uploads" className="rounded-xl border border-slate-200 bg-white p-3">
      <ul className="space-y-2" aria-live="polite">
        {items.map((item) => (
          <li key={item.key} className="min-w-0 text-sm">
            <div className="flex items-center justify-between gap-2">
              <span className="truncate font-medium text-slate-800" title={item.name}>
                {item.name}
              </span>
              <span
                className={`shrink-0 text-xs ${item.status === 'failed' ? 'text-red-700' : 'text-slate-600'}`}
                data-testid="upload-status"
              >
                {item.status === 'done'
                  ? 'Uploaded'
                  : item.status === 'failed'
                    ? 'Failed'
                    : `${percentOf(item)}% of ${formatBytes(item.size)}`}
              </span>
            </div>
            <progress
              className="mt-1 h-1.5 w-full accent-brand-600"
              max={100}
              value={percentOf(item)}
              aria-label={`Upload of ${item.name}`}
            />
            {item.error && (
              <p role="alert" className="text-xs text-red-700">
                {item.error}
              </p>
            )}
          </li>
        ))}
      </ul>
      {finished && (
        <button type="button" onClick={onClear} className="mt-2 text-xs font-medium text-brand-700 hover:underline">
          Clear finished
        </button>
      )}
    </section>
  );
}

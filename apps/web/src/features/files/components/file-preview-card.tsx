import type { FileRecord } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { THUMBNAIL_TYPES } from '@atrium/contracts/texts';
import { ChevronDown, ChevronRight, Download } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { sendOk } from '../../../lib/http';
import { downloadUrl, thumbnailUrl } from '../api/files-api';
import { FileRowMenu } from './row-menu';

const TEXT_PREVIEW_BYTES = 64 * 1024;

const isText = (type: string) => type.startsWith('text/') || type === 'application/json';

function TextPreview({ id }: { id: string }) {
  const [state, setState] = useState<{ text: string; truncated: boolean } | 'loading' | 'error'>('loading');
  useEffect(() => {
    const controller = new AbortController();
    sendOk(downloadUrl(id, true), {
      headers: { range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` },
      signal: controller.signal,
    })
      .then(async (response) => {
        const total = Number(/\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? 0);
        setState({ text: await response.text(), truncated: total > TEXT_PREVIEW_BYTES });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState('error');
      });
    return () => controller.abort();
  }, [id]);
  if (state === 'loading') return <p className="text-sm text-slate-500">Loading preview…</p>;
  if (state === 'error') return <p className="text-sm text-red-700">Could not load the preview.</p>;
  return (
    <pre
      data-testid="text-preview"
      className="max-h-72 overflow-auto rounded-lg bg-slate-900 p-3 text-xs whitespace-pre-wrap text-slate-100"
    >
      {state.text}
      {state.truncated ? '\n…' : ''}
    </pre>
  );
}

/** The media preview for a file, by its detected content type. */
function MediaPreview({ file }: { file: FileRecord }) {
  const type = file.contentType;
  if (THUMBNAIL_TYPES.includes(type)) {
    return (
      <img
        src={thumbnailUrl(file.id)}
        alt={`Preview of ${file.fileName}`}
        className="max-h-64 rounded-lg border border-slate-200"
      />
    );
  }
  if (type.startsWith('image/')) {
    return <img src={downloadUrl(file.id, true)} alt={`Preview of ${file.fileName}`} className="max-h-64 rounded-lg" />;
  }
  if (type.startsWith('audio/')) {
    return (
      <audio controls preload="metadata" src={downloadUrl(file.id, true)} className="w-full">
        <track kind="captions" />
      </audio>
    );
  }
  if (type.startsWith('video/')) {
    return (
      <video controls preload="metadata" src={downloadUrl(file.id, true)} className="max-h-72 w-full rounded-lg">
        <track kind="captions" />
      </video>
    );
  }
  if (type === 'application/pdf') {
    return (
      <iframe
        title={`Preview of ${file.fileName}`}
        src={downloadUrl(file.id, true)}
        className="h-96 w-full rounded-lg border border-slate-200"
      />
    );
  }
  if (isText(type)) return <TextPreview id={file.id} />;
  return <p className="text-sm text-slate-500">No preview for this kind of file.</p>;
}

/** The exact size, for a tooltip: "20,000,000 bytes". */
const exactBytes = (size: number) => `${size.toLocaleString('en-US')} ${size === 1 ? 'byte' : 'bytes'}`;

/**
 * A card that toggles open and closed; open, it shows details and a preview. Sizes read in KB from
 * 1 KB, in MB/GB from 1,024 KB (`formatBytes`), with the exact byte count in a tooltip.
 */
export function FilePreviewCard({ file, onDelete }: { file: FileRecord; onDelete?: (file: FileRecord) => void }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <article className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="flex items-center gap-1 pr-2">
        <h2 className="min-w-0 flex-1">
          <button
            type="button"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setOpen((value) => !value)}
            className="flex w-full items-center gap-2 rounded-xl px-4 py-3 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {open ? (
              <ChevronDown aria-hidden="true" className="size-4 shrink-0" />
            ) : (
              <ChevronRight aria-hidden="true" className="size-4 shrink-0" />
            )}
            <span className="min-w-0 flex-1 truncate font-medium text-slate-900">{file.fileName}</span>
            <span className="shrink-0 text-sm text-slate-500" title={exactBytes(file.size)}>
              {formatBytes(file.size)}
            </span>
          </button>
        </h2>
        <FileRowMenu file={file} onDelete={onDelete} />
      </div>
      {open && (
        <div id={panelId} className="space-y-3 border-t border-slate-100 px-4 py-3">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-500">Size</dt>
            <dd title={exactBytes(file.size)}>{formatBytes(file.size)}</dd>
            <dt className="text-slate-500">Type</dt>
            <dd>{file.contentType}</dd>
            <dt className="text-slate-500">Uploaded</dt>
            <dd>{new Date(file.uploadDate).toLocaleString()}</dd>
            <dt className="text-slate-500">File ID</dt>
            <dd className="break-all font-mono text-xs">{file.id}</dd>
          </dl>
          <MediaPreview file={file} />
          <a
            href={downloadUrl(file.id)}
            download={file.fileName}
            className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
          >
            <Download aria-hidden="true" className="size-4" /> Download
          </a>
        </div>
      )}
    </article>
  );
}

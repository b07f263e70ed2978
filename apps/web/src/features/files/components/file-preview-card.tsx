import type { FileRecord } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { ChevronDown, ChevronRight, Download, Expand } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { MediaPreview } from '../../../components/ui/media-preview';
import { downloadUrl, thumbnailUrl } from '../../../lib/file-urls';
import { VIEWER_OPENED_STATE, viewerHref } from '../../../lib/viewer-link';
import { FaceBoxes, FileInsightsPanel } from './file-insights';
import { FileRowMenu } from './row-menu';

/** The exact size, for a tooltip: "20,000,000 bytes". */
const exactBytes = (size: number) => `${size.toLocaleString('en-US')} ${size === 1 ? 'byte' : 'bytes'}`;

/**
 * A card that toggles open and closed; open, it shows details and a preview. Sizes read in KB from
 * 1 KB, in MB/GB from 1,024 KB (`formatBytes`), with the exact byte count in a tooltip.
 */
export function FilePreviewCard({ file, onDelete }: { file: FileRecord; onDelete?: (file: FileRecord) => void }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const media = useRef<HTMLMediaElement | null>(null);
  const location = useLocation();
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
          <div className="grid gap-3 md:grid-cols-2">
            <div className="min-w-0">
              <MediaPreview
                src={downloadUrl(file.id, true)}
                contentType={file.contentType}
                fileName={file.fileName}
                thumbnailSrc={thumbnailUrl(file.id)}
                mediaRef={media}
                overlay={file.contentType.startsWith('image/') ? <FaceBoxes fileId={file.id} /> : undefined}
              />
            </div>
            <FileInsightsPanel fileId={file.id} media={media} />
          </div>
          <div className="flex flex-wrap gap-4">
            <a
              href={downloadUrl(file.id)}
              download={file.fileName}
              className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
            >
              <Download aria-hidden="true" className="size-4" /> Download
            </a>
            {/* The full-screen viewer (docs/PRODUCT.md#file-viewer): zoom, Previous / Next, Share, Versions. */}
            <Link
              to={viewerHref(file.id, location.pathname, location.search)}
              state={VIEWER_OPENED_STATE}
              className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
            >
              <Expand aria-hidden="true" className="size-4" /> Open in viewer
            </Link>
          </div>
        </div>
      )}
    </article>
  );
}

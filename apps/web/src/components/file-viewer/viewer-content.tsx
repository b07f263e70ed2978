import { formatBytes } from '@atrium/contracts/format-bytes';
import { Download, FileArchive, Maximize, Minus, Plus } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode, type RefObject, type SyntheticEvent } from 'react';
import type { ViewerPlace } from '../../lib/viewer-link';
import { sendOk } from '../../lib/http';
import { Alert } from '../ui/alert';
import { buttonClass } from '../ui/button';
import { Markdown } from './markdown';
import { fitScale, stepZoom, zoomLabel, type Zoom } from './zoom';

// What the file viewer shows of a file, by its type (docs/PRODUCT.md#file-viewer). zod-free: the public link page
// uses it too.

/** How much of a text file the viewer reads at first; "Show more" reads the next part. */
export const TEXT_CHUNK_BYTES = 256 * 1024;

export type ViewerKind = 'image' | 'pdf' | 'audio' | 'video' | 'markdown' | 'text' | 'other';

const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/x-yaml',
  'application/yaml',
  'application/x-sh',
]);

/** How the viewer shows a file of this type (and name: `.md` files often arrive as text/plain). */
export function viewerKind(contentType: string, fileName = ''): ViewerKind {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type.startsWith('image/') && type !== 'image/svg+xml') return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  if (type === 'text/markdown' || type === 'text/x-markdown' || /\.(md|markdown)$/i.test(fileName)) return 'markdown';
  if (type.startsWith('text/') || TEXT_TYPES.has(type) || type.endsWith('+json')) return 'text';
  return 'other';
}

const toolButton =
  'inline-flex size-9 items-center justify-center rounded-lg border border-slate-600 bg-slate-800 text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white disabled:opacity-50';

/** An image with Fit / 100% and + / − zoom (and the wheel); larger than its box, it pans by dragging or scrolling. */
export function ImageView({ src, name, overlay }: { src: string; name: string; overlay?: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState<Zoom>('fit');
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [failed, setFailed] = useState(false);
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);

  const [boxSize, setBoxSize] = useState({ width: 0, height: 0 });
  const scale = zoom !== 'fit' ? zoom : natural ? fitScale(natural, boxSize) : 1;
  const scaleRef = useRef(scale);

  useEffect(() => {
    scaleRef.current = scale;
  });

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setBoxSize({ width: element.clientWidth, height: element.clientHeight });
    measure();
    window.addEventListener('resize', measure);
    // Not passive: the wheel zooms the picture instead of scrolling the page.
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY === 0) return;
      event.preventDefault();
      setZoom(stepZoom(scaleRef.current, event.deltaY < 0 ? 1 : -1));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      window.removeEventListener('resize', measure);
      element.removeEventListener('wheel', onWheel);
    };
  }, []);

  if (failed) return <Alert>Could not load the image.</Alert>;
  const sized = zoom !== 'fit' && natural;
  const width = natural && (zoom !== 'fit' || boxSize.width > 0) ? natural.width * scale : undefined;
  return (
    <div className="flex h-full min-h-0 flex-col gap-2">
      <div
        ref={box}
        data-testid="image-stage"
        className={`relative min-h-0 flex-1 overflow-auto ${sized ? 'cursor-grab' : ''}`}
        onPointerDown={(event) => {
          if (!sized || !box.current) return;
          drag.current = {
            x: event.clientX,
            y: event.clientY,
            left: box.current.scrollLeft,
            top: box.current.scrollTop,
          };
        }}
        onPointerMove={(event) => {
          const start = drag.current;
          if (!start || !box.current) return;
          box.current.scrollLeft = start.left - (event.clientX - start.x);
          box.current.scrollTop = start.top - (event.clientY - start.y);
        }}
        onPointerUp={() => (drag.current = null)}
        onPointerLeave={() => (drag.current = null)}
      >
        <div className={`flex min-h-full min-w-full ${sized ? '' : 'h-full'} items-center justify-center`}>
          <div className="relative inline-block shrink-0">
            <img
              src={src}
              alt={name}
              draggable={false}
              onLoad={(event) => {
                setNatural({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight });
                if (box.current) setBoxSize({ width: box.current.clientWidth, height: box.current.clientHeight });
              }}
              onError={() => setFailed(true)}
              // Sized by the scale shown (fit included, once the picture and its box are measured).
              style={width === undefined ? undefined : { width, maxWidth: 'none' }}
              className={`block select-none ${width === undefined ? 'max-h-[calc(100dvh-12rem)] max-w-full' : ''}`}
            />
            {overlay}
          </div>
        </div>
      </div>
      <div role="group" aria-label="Zoom" className="flex shrink-0 items-center justify-center gap-2">
        <button type="button" className={toolButton} aria-label="Zoom out" onClick={() => setZoom(stepZoom(scale, -1))}>
          <Minus aria-hidden="true" className="size-4" />
        </button>
        <output aria-live="polite" className="w-14 text-center text-sm text-white tabular-nums">
          {zoomLabel(scale)}
        </output>
        <button type="button" className={toolButton} aria-label="Zoom in" onClick={() => setZoom(stepZoom(scale, 1))}>
          <Plus aria-hidden="true" className="size-4" />
        </button>
        <button
          type="button"
          className={`${toolButton} w-auto px-3 text-sm`}
          aria-pressed={zoom === 'fit'}
          onClick={() => setZoom('fit')}
        >
          <Maximize aria-hidden="true" className="mr-1 size-4" /> Fit
        </button>
        <button
          type="button"
          className={`${toolButton} w-auto px-3 text-sm`}
          aria-pressed={zoom === 1}
          onClick={() => setZoom(1)}
        >
          100%
        </button>
      </div>
    </div>
  );
}

/** The first part of a text file (Range), as text or rendered Markdown, with "Show more" while there is more. */
export function TextView({ src, markdown, size }: { src: string; markdown: boolean; size: number }) {
  const [limit, setLimit] = useState(TEXT_CHUNK_BYTES);
  const [state, setState] = useState<{ text: string; total: number } | 'loading' | 'error'>('loading');
  useEffect(() => {
    const controller = new AbortController();
    sendOk(src, { headers: { range: `bytes=0-${limit - 1}` }, signal: controller.signal })
      .then(async (response) => {
        const total = Number(/\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? size);
        setState({ text: await response.text(), total });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState('error');
      });
    return () => controller.abort();
  }, [src, limit, size]);
  if (state === 'loading') return <p className="text-sm text-slate-300">Loading…</p>;
  if (state === 'error') return <Alert>Could not load the text of this file.</Alert>;
  const truncated = state.total > limit;
  return (
    <div className="mx-auto w-full max-w-3xl space-y-3 rounded-lg bg-white p-4 sm:p-6">
      {truncated && (
        <p className="text-sm text-slate-600" role="note">
          Showing the first {formatBytes(limit)} of {formatBytes(state.total)}.
        </p>
      )}
      {markdown ? (
        <Markdown source={state.text} />
      ) : (
        <pre
          data-testid="text-preview"
          className="font-mono text-xs whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]"
        >
          {state.text}
        </pre>
      )}
      {truncated && (
        <button type="button" className={buttonClass('secondary')} onClick={() => setLimit((value) => value * 4)}>
          Show more
        </button>
      )}
    </div>
  );
}

/** The card of a file the viewer cannot show: its icon, name, size, type and Download. */
export function DownloadCard({
  name,
  size,
  contentType,
  downloadHref,
}: {
  name: string;
  size: number;
  contentType: string;
  downloadHref: string;
}) {
  return (
    <div
      data-testid="download-card"
      className="mx-auto flex w-full max-w-sm flex-col items-center gap-3 rounded-2xl bg-white p-6 text-center shadow"
    >
      <FileArchive aria-hidden="true" className="size-12 text-slate-500" />
      <p className="font-medium break-all text-slate-900">{name}</p>
      <p className="text-sm text-slate-600">
        {formatBytes(size)} · {contentType || 'Unknown type'}
      </p>
      <p className="text-sm text-slate-600">There is no preview for this kind of file.</p>
      <a href={downloadHref} download={name} className={buttonClass('primary')}>
        <Download aria-hidden="true" className="size-4" /> Download
      </a>
    </div>
  );
}

export interface ViewerContentProps {
  /** The bytes, inline (with Range: players seek). */
  src: string;
  /** The bytes as an attachment (the download card). */
  downloadHref: string;
  name: string;
  size: number;
  contentType: string;
  /** Receives the audio or video element, so a transcript can seek it. */
  mediaRef?: RefObject<HTMLMediaElement | null>;
  /** Drawn over an image (face boxes). */
  overlay?: ReactNode;
  /** Where to open: a PDF's page, a recording's moment (a citation's place, `&page=` / `&t=`). */
  place?: ViewerPlace;
}

/** The file itself: image (zoom), PDF (the browser's viewer), audio and video players, text, Markdown, or a card. */
export function ViewerContent({
  src,
  downloadHref,
  name,
  size,
  contentType,
  mediaRef,
  overlay,
  place = {},
}: ViewerContentProps) {
  const kind = viewerKind(contentType, name);
  const startSeconds = place.startSeconds;
  // The player starts at the cited moment once it knows the recording's length.
  const startAt =
    startSeconds === undefined
      ? undefined
      : (event: SyntheticEvent<HTMLMediaElement>) => {
          event.currentTarget.currentTime = startSeconds;
        };
  const attach = (element: HTMLMediaElement | null) => {
    if (mediaRef) mediaRef.current = element;
  };
  switch (kind) {
    case 'image':
      return <ImageView key={src} src={src} name={name} overlay={overlay} />;
    case 'pdf':
      return (
        <iframe
          key={place.page}
          title={name}
          src={place.page === undefined ? src : `${src}#page=${place.page}`}
          className="h-full min-h-[60vh] w-full rounded-lg bg-white"
        />
      );
    case 'audio':
      return (
        <div className="flex h-full items-center justify-center p-4">
          <audio
            key={`${src}|${startSeconds ?? ''}`}
            ref={attach}
            controls
            preload="metadata"
            src={src}
            onLoadedMetadata={startAt}
            className="w-full max-w-xl"
          >
            <track kind="captions" />
          </audio>
        </div>
      );
    case 'video':
      return (
        <video
          key={`${src}|${startSeconds ?? ''}`}
          ref={attach}
          controls
          preload="metadata"
          src={src}
          onLoadedMetadata={startAt}
          className="mx-auto max-h-[calc(100dvh-10rem)] w-full"
        >
          <track kind="captions" />
        </video>
      );
    case 'markdown':
    case 'text':
      return <TextView key={src} src={src} markdown={kind === 'markdown'} size={size} />;
    default:
      return <DownloadCard name={name} size={size} contentType={contentType} downloadHref={downloadHref} />;
  }
}

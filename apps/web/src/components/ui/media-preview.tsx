import { THUMBNAIL_TYPES } from '@atrium/contracts/texts';
import { useEffect, useState, type ReactNode, type RefObject } from 'react';
import { sendOk } from '../../lib/http';
import { Alert } from './alert';

const TEXT_PREVIEW_BYTES = 64 * 1024;

const isText = (type: string) => type.startsWith('text/') || type === 'application/json';

/** The first 64 KB of a text file, fetched with a Range request. */
function TextPreview({ src }: { src: string }) {
  const [state, setState] = useState<{ text: string; truncated: boolean } | 'loading' | 'error'>('loading');
  useEffect(() => {
    const controller = new AbortController();
    sendOk(src, { headers: { range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` }, signal: controller.signal })
      .then(async (response) => {
        const total = Number(/\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? 0);
        setState({ text: await response.text(), truncated: total > TEXT_PREVIEW_BYTES });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState('error');
      });
    return () => controller.abort();
  }, [src]);
  if (state === 'loading') return <p className="text-sm text-slate-500">Loading preview…</p>;
  if (state === 'error') return <Alert>Could not load the preview.</Alert>;
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

export interface MediaPreviewProps {
  /** The file's bytes, served inline (with Range). */
  src: string;
  contentType: string;
  fileName: string;
  /** A server-made thumbnail for the types in THUMBNAIL_TYPES, when there is one. */
  thumbnailSrc?: string | undefined;
  /** Receives the audio or video element (a transcript beside the player seeks it). */
  mediaRef?: RefObject<HTMLMediaElement | null> | undefined;
  /** Drawn over an image preview, scaled with it (e.g. boxes around faces). */
  overlay?: ReactNode;
}

/** The preview of a file by its content type: image, audio, video, PDF or text (UI kit, used by files and links). */
export function MediaPreview({ src, contentType: type, fileName, thumbnailSrc, mediaRef, overlay }: MediaPreviewProps) {
  const attach = (element: HTMLMediaElement | null) => {
    if (mediaRef) mediaRef.current = element;
  };
  const withOverlay = (image: ReactNode) =>
    overlay ? (
      <div className="relative inline-block max-w-full">
        {image}
        {overlay}
      </div>
    ) : (
      image
    );
  if (thumbnailSrc && THUMBNAIL_TYPES.includes(type)) {
    return withOverlay(
      <img
        src={thumbnailSrc}
        alt={`Preview of ${fileName}`}
        className="block max-h-64 max-w-full rounded-lg border border-slate-200"
      />,
    );
  }
  if (type.startsWith('image/')) {
    return withOverlay(
      <img src={src} alt={`Preview of ${fileName}`} className="block max-h-64 max-w-full rounded-lg" />,
    );
  }
  if (type.startsWith('audio/')) {
    return (
      <audio ref={attach} controls preload="metadata" src={src} className="w-full">
        <track kind="captions" />
      </audio>
    );
  }
  if (type.startsWith('video/')) {
    return (
      <video ref={attach} controls preload="metadata" src={src} className="max-h-72 w-full rounded-lg">
        <track kind="captions" />
      </video>
    );
  }
  if (type === 'application/pdf') {
    return (
      <iframe title={`Preview of ${fileName}`} src={src} className="h-96 w-full rounded-lg border border-slate-200" />
    );
  }
  if (isText(type)) return <TextPreview src={src} />;
  return <p className="text-sm text-slate-500">No preview for this kind of file.</p>;
}

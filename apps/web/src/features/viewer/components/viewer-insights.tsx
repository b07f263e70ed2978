import { categoryLabel, type FileInsights } from '@atrium/contracts';
import { Sparkles } from 'lucide-react';
import { useId, useRef, type RefObject } from 'react';
import { Alert } from '../../../components/ui/alert';
import { CopyButton } from '../../../components/ui/copy-button';
import { timestamp } from '../../../lib/timestamp';
import { useViewerInsights } from '../api/viewer-api';

/** Moves the player to `seconds` and plays from there. */
export function seek(player: HTMLMediaElement | null | undefined, seconds: number) {
  if (!player) return;
  player.currentTime = seconds;
  void player.play().catch(() => undefined);
}

const heading = 'text-sm font-medium text-slate-700';

function OcrText({ text }: { text: string }) {
  const field = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={id} className={heading}>
          Text in this file
        </h3>
        <CopyButton
          text={text}
          field={field}
          ariaLabel="Copy the text"
          statusClassName="basis-full text-sm text-red-700"
        />
      </div>
      <textarea
        ref={field}
        readOnly
        aria-labelledby={id}
        value={text}
        rows={Math.min(12, Math.max(3, text.split('\n').length))}
        className="w-full resize-y rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-xs text-slate-800"
      />
    </div>
  );
}

function Chips({ items, label }: { items: string[]; label: string }) {
  return (
    <div>
      <h3 className={heading}>{label}</h3>
      <ul className="mt-1 flex flex-wrap gap-2" aria-label={label}>
        {items.map((item) => (
          <li key={item} className="rounded-full bg-brand-50 px-3 py-1 text-sm text-brand-700">
            {item}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Transcript({
  transcript,
  media,
}: {
  transcript: NonNullable<FileInsights['transcript']>;
  media: RefObject<HTMLMediaElement | null>;
}) {
  if (transcript.segments.length === 0) return <p className="text-sm text-slate-600">No speech was recognised.</p>;
  return (
    <div>
      <h3 className={heading}>Transcript</h3>
      <p className="text-xs text-slate-600">Choose a line to play the recording from there.</p>
      <ol className="mt-1 space-y-1" aria-label="Transcript">
        {transcript.segments.map((segment) => (
          <li key={`${segment.start}-${segment.end}`}>
            <button
              type="button"
              onClick={() => seek(media.current, segment.start)}
              className="flex w-full gap-3 rounded-lg px-2 py-1 text-left text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <span className="shrink-0 font-mono text-xs text-brand-700 tabular-nums">{timestamp(segment.start)}</span>{' '}
              <span className="text-slate-800">{segment.text}</span>
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}

export interface ViewerInsightsProps {
  fileId: string;
  /** The player the transcript seeks. */
  media: RefObject<HTMLMediaElement | null>;
  /** Whether the face boxes are drawn over the image, and how to switch them. */
  showFaces: boolean;
  onShowFaces: (show: boolean) => void;
}

/**
 * What background analysis found in the file, beside it in the viewer (docs/PRODUCT.md#file-insights): progress while
 * it runs (asked again until done), then caption, tags, faces (with a switch for their boxes), the text with Copy and
 * the transcript whose lines seek the player.
 */
export function ViewerInsights({ fileId, media, showFaces, onShowFaces }: ViewerInsightsProps) {
  const insights = useViewerInsights(fileId);
  const headingId = useId();
  const body = (() => {
    if (insights.isPending) return <p className="text-sm text-slate-600">Loading insights…</p>;
    if (insights.isError) return <Alert>Could not load the insights.</Alert>;
    const found = insights.data;
    if (found.status === 'pending' || found.status === 'running') {
      const percent = Math.round((found.progress ?? 0) * 100);
      return (
        <div className="space-y-1">
          <p className="text-sm text-slate-700" role="status">
            Analysing…{found.status === 'running' && percent > 0 ? ` ${percent}%` : ''}
          </p>
          <progress
            aria-label="Analysis progress"
            max={100}
            value={found.status === 'running' ? percent : undefined}
            className="h-2 w-full overflow-hidden rounded-full accent-brand-600"
          />
        </div>
      );
    }
    if (found.status === 'unsupported')
      return <p className="text-sm text-slate-600">There are no insights for this kind of file.</p>;
    if (found.status === 'failed')
      return (
        <p className="text-sm text-red-700">
          The analysis failed{found.error ? `: ${found.error}` : '.'} It is retried when the file is stored again.
        </p>
      );
    const faces = found.faces ?? [];
    const nothing = !found.caption && !found.tags?.length && !found.text && !found.transcript && faces.length === 0;
    return (
      <div className="space-y-4">
        {found.caption && (
          <p className="text-sm text-slate-800">
            <span className="font-medium text-slate-700">Caption: </span>
            {found.caption}
          </p>
        )}
        {found.tags && found.tags.length > 0 && <Chips items={found.tags} label="Tags" />}
        {found.objects && found.objects.length > 0 && (
          <Chips items={[...new Set(found.objects.map((o) => categoryLabel(o.name)))]} label="Categories" />
        )}
        {faces.length > 0 && (
          <div>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className={heading}>{faces.length === 1 ? '1 face' : `${faces.length} faces`}</h3>
              <label className="inline-flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  checked={showFaces}
                  onChange={(event) => onShowFaces(event.target.checked)}
                  className="size-4 accent-brand-600"
                />
                Show face boxes
              </label>
            </div>
            <ul className="mt-1 text-sm text-slate-700">
              {faces.map((face, index) => (
                <li key={index}>
                  About {Math.round(face.age)}, {face.gender}, {face.emotion}
                </li>
              ))}
            </ul>
          </div>
        )}
        {found.text ? <OcrText text={found.text} /> : null}
        {found.transcript && <Transcript transcript={found.transcript} media={media} />}
        {nothing && <p className="text-sm text-slate-600">Nothing was found in this file.</p>}
        {found.analysedAt && (
          <p className="text-xs text-slate-600">
            Analysed {new Date(found.analysedAt).toLocaleString()}
            {found.engine ? ` with ${found.engine}` : ''}
          </p>
        )}
      </div>
    );
  })();
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h2 id={headingId} className="flex items-center gap-1 text-base font-semibold text-slate-900">
        <Sparkles aria-hidden="true" className="size-4 text-brand-600" /> Insights
      </h2>
      {body}
    </section>
  );
}

/** Boxes around the faces analysis found, over the image (fractions of its size, so they scale with it). */
export function ViewerFaceBoxes({ fileId }: { fileId: string }) {
  const insights = useViewerInsights(fileId);
  const faces = insights.data?.status === 'done' ? (insights.data.faces ?? []) : [];
  if (faces.length === 0) return null;
  return (
    <svg
      data-testid="face-boxes"
      viewBox="0 0 1 1"
      preserveAspectRatio="none"
      className="pointer-events-none absolute inset-0 h-full w-full"
      aria-hidden="true"
    >
      {faces.map((face, index) => (
        <rect
          key={index}
          x={face.box.left}
          y={face.box.top}
          width={face.box.width}
          height={face.box.height}
          fill="none"
          stroke="#facc15"
          strokeWidth={2}
          vectorEffect="non-scaling-stroke"
        >
          <title>{`About ${Math.round(face.age)}, ${face.gender}, ${face.emotion}`}</title>
        </rect>
      ))}
    </svg>
  );
}

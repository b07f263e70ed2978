import type { FileInsights } from '@atrium/contracts';
import { Sparkles } from 'lucide-react';
import { useId, useRef, type RefObject } from 'react';
import { Alert } from '../../../components/ui/alert';
import { CopyButton } from '../../../components/ui/copy-button';
import { useFileInsights } from '../api/files-api';

/** "1:05" from seconds. */
export const timestamp = (seconds: number) => {
  const whole = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
};

function CopyableText({ text, label }: { text: string; label: string }) {
  const field = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={id} className="text-sm font-medium text-slate-700">
          {label}
        </h3>
        <CopyButton text={text} field={field} statusClassName="basis-full text-sm text-red-700" />
      </div>
      <textarea
        ref={field}
        readOnly
        aria-labelledby={id}
        value={text}
        rows={Math.min(10, Math.max(2, text.split('\n').length))}
        className="w-full resize-y rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-xs text-slate-800"
      />
    </div>
  );
}

function Chips({ items, label }: { items: string[]; label: string }) {
  return (
    <div>
      <h3 className="text-sm font-medium text-slate-700">{label}</h3>
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

/** The transcript's segments as buttons: a click (or Enter) moves the player there and plays. */
function Transcript({
  transcript,
  media,
}: {
  transcript: NonNullable<FileInsights['transcript']>;
  media: RefObject<HTMLMediaElement | null> | undefined;
}) {
  if (transcript.segments.length === 0) return <p className="text-sm text-slate-600">No speech was recognised.</p>;
  return (
    <div>
      <h3 className="text-sm font-medium text-slate-700">Transcript</h3>
      <ol className="mt-1 max-h-72 space-y-1 overflow-auto" aria-label="Transcript">
        {transcript.segments.map((segment) => (
          <li key={`${segment.start}-${segment.end}`}>
            <button
              type="button"
              onClick={() => {
                const player = media?.current;
                if (!player) return;
                player.currentTime = segment.start;
                void player.play().catch(() => undefined);
              }}
              className="flex w-full gap-3 rounded-lg px-2 py-1 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
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

/**
 * What background analysis found in a file (GET /api/files/{id}/insights): "Analysing…" with progress while it
 * runs, then the caption, tags, text (selectable, with Copy), transcript segments (a click seeks `media`), faces.
 */
export function FileInsightsPanel({ fileId, media }: { fileId: string; media?: RefObject<HTMLMediaElement | null> }) {
  const insights = useFileInsights(fileId);
  const headingId = useId();
  const body = (() => {
    if (insights.isPending) return <p className="text-sm text-slate-500">Loading insights…</p>;
    if (insights.isError) return <Alert>Could not load the insights.</Alert>;
    const found = insights.data;
    if (found.status === 'pending' || found.status === 'running') {
      const percent = Math.round((found.progress ?? 0) * 100);
      return (
        <div className="space-y-1">
          <p className="text-sm text-slate-600" role="status">
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
    const nothing = !found.caption && !found.tags?.length && !found.text && !found.transcript && !found.faces?.length;
    return (
      <div className="space-y-3">
        {found.caption && (
          <p className="text-sm text-slate-800">
            <span className="font-medium text-slate-700">Caption: </span>
            {found.caption}
          </p>
        )}
        {found.tags && found.tags.length > 0 && <Chips items={found.tags} label="Tags" />}
        {found.objects && found.objects.length > 0 && (
          <Chips items={[...new Set(found.objects.map((o) => o.name))]} label="Categories" />
        )}
        {found.faces && found.faces.length > 0 && (
          <div>
            <h3 className="text-sm font-medium text-slate-700">
              {found.faces.length === 1 ? '1 face' : `${found.faces.length} faces`}
            </h3>
            <ul className="mt-1 text-sm text-slate-700">
              {found.faces.map((face, index) => (
                <li key={index}>
                  About {Math.round(face.age)}, {face.gender}, {face.emotion}
                </li>
              ))}
            </ul>
          </div>
        )}
        {found.text ? <CopyableText text={found.text} label="Text in this file" /> : null}
        {found.transcript && <Transcript transcript={found.transcript} media={media} />}
        {nothing && <p className="text-sm text-slate-600">Nothing was found in this file.</p>}
        {found.analysedAt && (
          <p className="text-xs text-slate-500">
            Analysed {new Date(found.analysedAt).toLocaleString()}
            {found.engine ? ` with ${found.engine}` : ''}
          </p>
        )}
      </div>
    );
  })();
  return (
    <section aria-labelledby={headingId} className="space-y-2 rounded-lg border border-slate-200 p-3">
      <h3 id={headingId} className="flex items-center gap-1 text-sm font-semibold text-slate-900">
        <Sparkles aria-hidden="true" className="size-4 text-brand-600" /> Insights
      </h3>
      {body}
    </section>
  );
}

/**
 * Boxes around the faces analysis found, over the image preview (an SVG in the image's own proportions, so it scales
 * with the picture; each box is titled with what was found).
 */
export function FaceBoxes({ fileId }: { fileId: string }) {
  const insights = useFileInsights(fileId);
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

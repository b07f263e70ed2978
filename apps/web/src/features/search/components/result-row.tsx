import type { ReactNode } from 'react';
import { fileKindOf, type SearchHighlight, type SearchResult } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { FileArchive, FileAudio, FileImage, FileText, FileVideo, Folder, type LucideIcon } from 'lucide-react';
import { locationText } from '../lib/result-link';

/** `text` with the matched ranges in `<mark>`. */
export function Highlighted({ text, highlights }: { text: string; highlights: SearchHighlight[] }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [index, { start, end }] of highlights.entries()) {
    if (start < at || end > text.length) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(
      <mark key={index} className="rounded-sm bg-amber-100 px-0.5 text-inherit">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}

const KIND_ICONS: Record<ReturnType<typeof fileKindOf>, LucideIcon> = {
  image: FileImage,
  audio: FileAudio,
  video: FileVideo,
  document: FileText,
  other: FileArchive,
};

/** The icon of a result: a folder, or its file kind's. */
function ResultIcon({ result }: { result: SearchResult }) {
  const className = `mt-0.5 size-5 shrink-0 ${result.kind === 'folder' ? 'text-brand-600' : 'text-slate-500'}`;
  if (result.kind === 'folder') return <Folder className={className} aria-hidden="true" />;
  const Icon = KIND_ICONS[fileKindOf(result.mimeType ?? '')];
  return <Icon className={className} aria-hidden="true" />;
}

/** One result: icon, name (matches marked), the content snippet when the match is there, and where it is. */
export function ResultSummary({ result }: { result: SearchResult }) {
  const details = [
    locationText(result),
    result.size === null ? null : formatBytes(result.size),
    new Date(result.modifiedAt).toLocaleDateString(),
  ].filter(Boolean);
  return (
    <span className="flex min-w-0 items-start gap-3">
      <ResultIcon result={result} />
      <span className="min-w-0 flex-1">
        <span className="block truncate font-medium text-slate-900">
          {result.matchedIn === 'name' ? (
            <Highlighted text={result.snippet} highlights={result.highlights} />
          ) : (
            result.name
          )}
        </span>
        {result.matchedIn === 'content' && (
          <span className="mt-0.5 block text-sm text-slate-700 [overflow-wrap:anywhere]">
            <Highlighted text={result.snippet} highlights={result.highlights} />
          </span>
        )}
        <span className="mt-0.5 block truncate text-xs text-slate-500" data-testid="search-location">
          {details.join(' · ')}
        </span>
      </span>
    </span>
  );
}

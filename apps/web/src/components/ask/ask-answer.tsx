import type { AskCitation } from '@atrium/contracts';
import { FileText } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { timestamp } from '../../lib/timestamp';
import { VIEWER_OPENED_STATE, viewerHref } from '../../lib/viewer-link';

/** The signed-in page a citation opens the viewer over when the answer is shown elsewhere (a public page's chat). */
const VIEWER_HOME = '/dashboard';

/** "page 3", "at 1:05", or nothing: where in the file a citation points. */
export const citationPlace = (citation: Pick<AskCitation, 'page' | 'startSeconds'>): string | undefined =>
  citation.page !== undefined
    ? `page ${citation.page}`
    : citation.startSeconds !== undefined
      ? `at ${timestamp(citation.startSeconds)}`
      : undefined;

/** The passage with the sentences that match the question marked. */
function Passage({ citation }: { citation: AskCitation }) {
  const parts: ReactNode[] = [];
  let at = 0;
  const spans = [...citation.highlights].sort((a, b) => a.start - b.start);
  for (const [index, span] of spans.entries()) {
    const start = Math.max(at, Math.min(span.start, citation.text.length));
    const end = Math.max(start, Math.min(span.end, citation.text.length));
    if (start > at) parts.push(citation.text.slice(at, start));
    if (end > start)
      parts.push(
        <mark key={index} className="rounded bg-amber-100 px-0.5 text-slate-900">
          {citation.text.slice(start, end)}
        </mark>,
      );
    at = end;
  }
  if (at < citation.text.length) parts.push(citation.text.slice(at));
  return <p className="mt-1 line-clamp-4 text-xs text-slate-600">{parts}</p>;
}

/** The answer's text with each `[n]` a link to its citation below. */
function AnswerText({ text, citations }: { text: string; citations: readonly AskCitation[] }) {
  const known = new Set(citations.map((citation) => citation.n));
  const pieces = text.split(/(\[\d+\])/);
  return (
    <p className="whitespace-pre-line text-sm text-slate-800" data-testid="ask-answer-text">
      {pieces.map((piece, index) => {
        const n = /^\[(\d+)\]$/.exec(piece)?.[1];
        if (!n || !known.has(Number(n))) return <Fragment key={index}>{piece}</Fragment>;
        return (
          <sup key={index} className="text-xs font-semibold text-brand-700">
            [{n}]
          </sup>
        );
      })}
    </p>
  );
}

export interface AskAnswerProps {
  answer: string;
  citations: readonly AskCitation[];
  /** Still arriving: the citations come with the end. */
  streaming?: boolean;
  /** Smaller spacing (a chat bubble). */
  compact?: boolean;
}

/**
 * An answer from the team's files with its citations (docs/PRODUCT.md#ask-your-files): the text, then each cited
 * file as a link that opens the viewer at the page or moment, with the passage and its matching sentences marked.
 * The one rendering of an answer: the search page, the chat and the viewer's "Summarise" all show this.
 */
export function AskAnswer({ answer, citations, streaming = false, compact = false }: AskAnswerProps) {
  const location = useLocation();
  const here = location.pathname.startsWith(VIEWER_HOME);
  return (
    <div className={compact ? 'space-y-2' : 'space-y-3'} aria-busy={streaming}>
      <AnswerText text={answer} citations={citations} />
      {citations.length > 0 && (
        <ol aria-label="Sources" className="space-y-1 border-t border-slate-100 pt-2">
          {citations.map((citation) => {
            const place = citationPlace(citation);
            return (
              <li key={citation.n}>
                <Link
                  to={viewerHref(citation.fileId, here ? location.pathname : VIEWER_HOME, here ? location.search : '', {
                    page: citation.page,
                    startSeconds: citation.startSeconds,
                  })}
                  state={VIEWER_OPENED_STATE}
                  className="block rounded-lg px-2 py-1.5 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  <span className="flex min-w-0 items-start gap-2 text-sm font-medium text-brand-700">
                    <span className="shrink-0 tabular-nums">[{citation.n}]</span>
                    <FileText aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                    <span className="min-w-0 break-words">
                      {citation.fileName}
                      {place && <span className="font-normal text-slate-600"> · {place}</span>}
                    </span>
                  </span>
                  {!compact && <Passage citation={citation} />}
                </Link>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

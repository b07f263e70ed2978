import { FileKind, type Space } from '@atrium/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { Sparkles } from 'lucide-react';
import { AskResult } from '../../../components/ask/ask-result';
import { useAsk } from '../../../components/ask/use-ask';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { LoadMore } from '../../../components/ui/load-more';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { spacesQueryOptions } from '../../../lib/queries/spaces';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useDebounced } from '../../../lib/use-debounced';
import { VIEWER_OPENED_STATE, viewerHref } from '../../../lib/viewer-link';
import { rememberViewerList } from '../../../lib/viewer-list';
import { useSearch, type SearchParams } from '../api/search-api';
import { ResultSummary } from '../components/result-row';
import { SearchLabel } from '../components/search-label';
import { resultTarget } from '../lib/result-link';

const KIND_LABELS: Record<FileKind, string> = {
  image: 'Images',
  audio: 'Audio',
  video: 'Videos',
  document: 'Documents',
  other: 'Other files',
};

const fieldClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm focus:border-brand-600 focus:outline-none focus-visible:outline-2 focus-visible:outline-brand-600';

/** A filter: its small label above the control. */
function FilterField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-slate-600">
        {label}
      </label>
      {children}
    </div>
  );
}

/**
 * `/dashboard/search?q=&type=&spaceId=&from=&to=`: every result of a search, best first, with the filters (kind,
 * space, modified between), "Load more", and where each result is. The filters live in the URL, so a search can be
 * shared or reloaded.
 */
export default function SearchPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const ids = { q: useId(), type: useId(), space: useId(), from: useId(), to: useId() };
  const text = params.get('q') ?? '';
  const typeParam = params.get('type') ?? '';
  const filters: SearchParams = {
    q: useDebounced(text.trim()),
    type: FileKind.safeParse(typeParam).success ? (typeParam as FileKind) : '',
    spaceId: params.get('spaceId') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  };
  const results = useSearch(filters);
  const spaces = useQuery(spacesQueryOptions());
  const ask = useAsk();
  useDocumentTitle(text.trim() ? `Search: ${text.trim()}` : 'Search');

  const set = (key: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === '') next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );

  const items = results.data?.pages.flatMap((page) => page.items) ?? [];
  // A file opens in the viewer over the results; Previous / Next step through the files found.
  const rememberFound = () =>
    rememberViewerList(items.filter((item) => item.kind === 'file').map((item) => ({ id: item.id, name: item.name })));
  const spaceOptions = (spaces.data ?? []).map((space: Space) => ({
    value: space.kind === 'personal' ? 'personal' : space.id,
    label: space.name,
  }));

  return (
    <section className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">Search</h1>
      <form role="search" className="space-y-3" onSubmit={(event) => event.preventDefault()}>
        <div className="relative">
          <SearchLabel inputId={ids.q} />
          <input
            id={ids.q}
            type="search"
            value={text}
            maxLength={200}
            autoFocus
            placeholder="Search files and folders…"
            onChange={(event) => set('q', event.target.value)}
            className={`${fieldClass} pl-9`}
          />
        </div>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          <FilterField id={ids.type} label="Type">
            <select
              id={ids.type}
              value={filters.type}
              onChange={(event) => set('type', event.target.value)}
              className={fieldClass}
            >
              <option value="">Any type</option>
              {FileKind.options.map((kind) => (
                <option key={kind} value={kind}>
                  {KIND_LABELS[kind]}
                </option>
              ))}
            </select>
          </FilterField>
          <FilterField id={ids.space} label="Space">
            <select
              id={ids.space}
              value={filters.spaceId}
              onChange={(event) => set('spaceId', event.target.value)}
              className={fieldClass}
            >
              <option value="">All spaces</option>
              {spaceOptions.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
              <option value="shared">Shared with me</option>
            </select>
          </FilterField>
          <FilterField id={ids.from} label="Modified from">
            <input
              id={ids.from}
              type="date"
              value={filters.from}
              onChange={(event) => set('from', event.target.value)}
              className={fieldClass}
            />
          </FilterField>
          <FilterField id={ids.to} label="Modified to">
            <input
              id={ids.to}
              type="date"
              value={filters.to}
              onChange={(event) => set('to', event.target.value)}
              className={fieldClass}
            />
          </FilterField>
        </div>
      </form>

      {text.trim() !== '' && (
        <div className="space-y-3">
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="button"
              onClick={() => ask.ask({ question: text.trim() })}
              disabled={ask.state.status === 'asking'}
              className={buttonClass('primary')}
            >
              <Sparkles aria-hidden="true" className="size-4" /> Ask
            </button>
            <p className="text-sm text-slate-600">Answer “{text.trim()}” from what your files say, with sources.</p>
          </div>
          <AskResult state={ask.state} onCancel={ask.cancel} label="Answer" />
        </div>
      )}

      <div aria-live="polite">
        {filters.q === '' ? (
          <p className="rounded-xl border border-slate-200 bg-white p-6 text-center text-slate-600">
            Type part of a name to find files and folders in your space, your workspaces and what is shared with you.
          </p>
        ) : results.isError ? (
          <Alert variant="panel">{errorText(results.error) ?? 'Search failed.'}</Alert>
        ) : results.isPending ? (
          <Spinner label="Searching…" />
        ) : items.length === 0 && ask.state.status !== 'idle' ? (
          // The question was asked of the files' content: the empty name search is a note, not the page's verdict.
          <p className="px-1 text-sm text-slate-600">No file or folder name matches “{filters.q}”.</p>
        ) : items.length === 0 ? (
          <div className="rounded-xl border border-slate-200 bg-white p-8 text-center">
            <p className="font-medium text-slate-800">Nothing matches “{filters.q}”.</p>
            <p className="mt-1 text-sm text-slate-600">Try the start of another word, or fewer filters.</p>
          </div>
        ) : (
          <ul
            className="divide-y divide-slate-100 overflow-hidden rounded-xl border border-slate-200 bg-white"
            aria-label="Search results"
          >
            {items.map((result) => {
              const target = resultTarget(result);
              const linkClass =
                'block px-4 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600';
              return (
                <li key={`${result.kind}:${result.id}`} className="flex items-stretch">
                  {result.kind === 'file' ? (
                    <>
                      <Link
                        to={viewerHref(result.id, location.pathname, location.search)}
                        state={VIEWER_OPENED_STATE}
                        onClick={rememberFound}
                        className={`${linkClass} min-w-0 flex-1`}
                      >
                        <ResultSummary result={result} />
                      </Link>
                      {!target.external && (
                        <Link
                          to={target.href}
                          aria-label={`Go to folder of ${result.name}`}
                          className="flex shrink-0 items-center px-3 text-sm font-medium text-brand-700 hover:bg-slate-50 hover:underline focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
                        >
                          Go to folder
                        </Link>
                      )}
                    </>
                  ) : target.external ? (
                    <a href={target.href} target="_blank" rel="noopener" className={linkClass}>
                      <ResultSummary result={result} />
                    </a>
                  ) : (
                    <Link to={target.href} className={`${linkClass} min-w-0 flex-1`}>
                      <ResultSummary result={result} />
                    </Link>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <LoadMore query={results} centred />
    </section>
  );
}

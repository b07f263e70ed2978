import type { SearchResult } from '@atrium/contracts';
import { useId, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { errorText } from '../../../lib/api-error';
import { useDebounced } from '../../../lib/use-debounced';
import { useSearch } from '../api/search-api';
import { resultTarget, searchPagePath } from '../lib/result-link';
import { ResultSummary } from './result-row';
import { SearchLabel } from './search-label';
import { Alert } from '../../../components/ui/alert';

/** Results shown under the box (the search page shows the rest). */
const SHOWN = 8;

/**
 * The search box of the file screens: searches names (and content text) of everything the user can read as they
 * type (debounced), lists the best matches under the box (a WAI-ARIA combobox: ↑/↓ to move, Enter to open, Escape
 * to close), and opens a result's folder — or, for a file shared on its own, the file. Enter with no result chosen
 * opens the search page with every result and the filters.
 */
export function SearchBox({ className = '' }: { className?: string }) {
  const navigate = useNavigate();
  const id = useId();
  const listId = `${id}-results`;
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const q = useDebounced(text.trim());
  const results = useSearch({ q, limit: SHOWN });
  const items = q === '' ? [] : (results.data?.pages[0]?.items ?? []);
  const typing = text.trim() !== q || (results.isFetching && !results.isFetchingNextPage);
  const showPanel = open && text.trim() !== '';

  const choose = (result: SearchResult) => {
    const target = resultTarget(result);
    setOpen(false);
    setActive(-1);
    if (target.external) window.open(target.href, '_blank', 'noopener');
    else void navigate(target.href);
  };
  const seeAll = () => {
    setOpen(false);
    void navigate(searchPagePath(text));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((current) => (items.length === 0 ? -1 : (current + 1) % items.length));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((current) => (items.length === 0 ? -1 : current <= 0 ? items.length - 1 : current - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = items[active];
      if (chosen) choose(chosen);
      else if (text.trim() !== '') seeAll();
    } else if (event.key === 'Escape') {
      if (showPanel) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else setText('');
    }
  };

  const error = results.isError ? (errorText(results.error) ?? 'Search failed.') : null;

  return (
    <div className={`relative ${className}`}>
      <SearchLabel inputId={id} />
      <input
        id={id}
        type="search"
        role="combobox"
        aria-expanded={showPanel}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showPanel && active >= 0 ? `${listId}-${active}` : undefined}
        autoComplete="off"
        value={text}
        maxLength={200}
        placeholder="Search files and folders…"
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className="w-full rounded-lg border border-slate-300 bg-white py-2 pl-9 pr-3 text-sm focus:border-brand-600 focus:outline-none focus-visible:outline-2 focus-visible:outline-brand-600"
      />
      {showPanel && (
        <div className="absolute left-0 right-0 top-full z-30 mt-1 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-lg">
          <ul id={listId} role="listbox" aria-label="Search results" className="max-h-[60vh] overflow-y-auto">
            {items.map((result, index) => (
              <li
                key={`${result.kind}:${result.id}`}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                // Keep the focus in the box: the click chooses without blurring it first.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(result)}
                onMouseEnter={() => setActive(index)}
                className={`cursor-pointer px-3 py-2 ${index === active ? 'bg-brand-50' : 'hover:bg-slate-50'}`}
              >
                <ResultSummary result={result} />
              </li>
            ))}
          </ul>
          <div className="border-t border-slate-100 px-3 py-2 text-sm" aria-live="polite">
            {error ? (
              <Alert>{error}</Alert>
            ) : typing && items.length === 0 ? (
              <p className="text-slate-500">Searching…</p>
            ) : items.length === 0 ? (
              <p className="text-slate-600">No files or folders match “{text.trim()}”.</p>
            ) : (
              <button
                type="button"
                onMouseDown={(event) => event.preventDefault()}
                onClick={seeAll}
                className="font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                See all results and filters
              </button>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

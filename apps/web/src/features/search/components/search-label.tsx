import { Search } from 'lucide-react';

/** The search input's label (for screen readers) and magnifier: the header's box and the search page share them. */
export function SearchLabel({ inputId }: { inputId: string }) {
  return (
    <>
      <label htmlFor={inputId} className="sr-only">
        Search files and folders
      </label>
      <Search
        className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500"
        aria-hidden="true"
      />
    </>
  );
}

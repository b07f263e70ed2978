import { buttonClass } from './button';

/** What `LoadMore` needs of an infinite query (`useInfiniteQuery`'s result has it). */
export interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

const LOOKS = {
  /** A secondary button (the file browser, search, the public link page). */
  secondary: buttonClass('secondary'),
  /** A plain outlined button under the admin screens' lists. */
  plain: 'mt-4 min-h-11 rounded-md px-4 py-2 ring-1 ring-slate-300',
} as const;

export interface LoadMoreProps {
  query: PagedQuery;
  /** The button's text: "Load more" (the public link page says "Show more", docs/PRODUCT.md#sharing-screens-web). */
  label?: string;
  look?: keyof typeof LOOKS;
  /** Centres the button in a row of its own under the list. */
  centred?: boolean;
}

/**
 * The one pager of the app: fetches the next page of an infinite query, says "Loading…" (and takes no second click)
 * while it comes, and is gone when there is no next page.
 */
export function LoadMore({ query, label = 'Load more', look = 'secondary', centred = false }: LoadMoreProps) {
  if (!query.hasNextPage) return null;
  const button = (
    <button
      type="button"
      onClick={() => void query.fetchNextPage()}
      disabled={query.isFetchingNextPage}
      className={LOOKS[look]}
    >
      {query.isFetchingNextPage ? 'Loading…' : label}
    </button>
  );
  return centred ? <div className="flex justify-center">{button}</div> : button;
}

import { Clock } from 'lucide-react';
import { HomeItemList } from '../../../components/home-items';
import { Alert } from '../../../components/ui/alert';
import { LoadMore } from '../../../components/ui/load-more';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useRecent } from '../api/activity-api';

/** /dashboard/recent: files I can read in every space, newest content first (docs/PRODUCT.md#starred-and-recent). */
export default function RecentPage() {
  useDocumentTitle('Recent');
  const recent = useRecent();
  const items = recent.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">Recent</h1>
        <p className="mt-2 text-slate-600">
          Files uploaded or changed lately in your personal space, your workspaces and what is shared with you.
        </p>
      </header>
      {recent.isPending ? (
        <Spinner label="Loading recent files…" />
      ) : recent.isError ? (
        <Alert>{errorText(recent.error) ?? 'Recent files could not be loaded.'}</Alert>
      ) : items.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center">
          <Clock aria-hidden="true" className="mx-auto size-8 text-slate-400" />
          <p className="mt-2 font-medium text-slate-900">No files yet.</p>
          <p className="mt-1 text-sm text-slate-600">Files you or your team upload show up here, newest first.</p>
        </div>
      ) : (
        <HomeItemList items={items} label="Recent files" />
      )}
      <LoadMore query={recent} centred />
    </section>
  );
}

import { Star } from 'lucide-react';
import { Alert } from '../../../components/ui/alert';
import { HomeItemList } from '../../../components/home-items';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useStarred } from '../api/activity-api';

/** /dashboard/starred: what I starred in every space, newest star first (docs/PRODUCT.md#starred-and-recent). */
export default function StarredPage() {
  useDocumentTitle('Starred');
  const starred = useStarred();
  return (
    <section className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">Starred</h1>
        <p className="mt-2 text-slate-600">Files and folders you starred, in every space you can reach.</p>
      </header>
      {starred.isPending ? (
        <Spinner label="Loading starred items…" />
      ) : starred.isError ? (
        <Alert>{errorText(starred.error) ?? 'Starred items could not be loaded.'}</Alert>
      ) : starred.data.items.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center">
          <Star aria-hidden="true" className="mx-auto size-8 text-slate-400" />
          <p className="mt-2 font-medium text-slate-900">Nothing is starred yet.</p>
          <p className="mt-1 text-sm text-slate-600">
            Star a file or folder from its menu, or press s in the viewer, to find it here.
          </p>
        </div>
      ) : (
        <HomeItemList items={starred.data.items} label="Starred" />
      )}
    </section>
  );
}

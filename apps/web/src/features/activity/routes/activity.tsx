import { useQuery } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { ActivityFeed } from '../../../components/activity/activity-feed';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { spacesQueryOptions } from '../../../lib/queries/spaces';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** The query parameter naming the workspace whose activity is shown. */
export const WORKSPACE_PARAM = 'workspace';

/**
 * /dashboard/activity: a workspace's activity (docs/PRODUCT.md#activity), the workspace chosen in a list of mine
 * (`?workspace=<id>`, the first one by default), filterable by person and type.
 */
export default function ActivityPage() {
  useDocumentTitle('Activity');
  const spaces = useQuery(spacesQueryOptions());
  const [params, setParams] = useSearchParams();
  const selectId = useId();
  const workspaces = (spaces.data ?? []).flatMap((space) => (space.kind === 'workspace' ? [space] : []));
  const chosen = workspaces.find((space) => space.id === params.get(WORKSPACE_PARAM)) ?? workspaces[0];

  return (
    <section className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">Activity</h1>
        <p className="mt-2 text-slate-600">Who uploaded, changed, moved, shared or deleted what in a workspace.</p>
      </header>
      {spaces.isPending ? (
        <Spinner label="Loading your workspaces…" />
      ) : spaces.isError ? (
        <Alert>{errorText(spaces.error) ?? 'Your workspaces could not be loaded.'}</Alert>
      ) : !chosen ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center">
          <Users aria-hidden="true" className="mx-auto size-8 text-slate-400" />
          <p className="mt-2 font-medium text-slate-900">You are not in a workspace yet.</p>
          <p className="mt-1 text-sm text-slate-600">
            A workspace’s activity shows here once you create one or someone adds you.
          </p>
        </div>
      ) : (
        <>
          <div className="flex flex-col gap-1">
            <label htmlFor={selectId} className="text-sm font-medium text-slate-700">
              Workspace
            </label>
            <select
              id={selectId}
              value={chosen.id}
              onChange={(event) => setParams({ [WORKSPACE_PARAM]: event.target.value }, { replace: true })}
              className="min-h-11 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 sm:w-72"
            >
              {workspaces.map((space) => (
                <option key={space.id} value={space.id}>
                  {space.name}
                </option>
              ))}
            </select>
          </div>
          <ActivityFeed key={chosen.id} scope={{ kind: 'workspace', id: chosen.id }} />
        </>
      )}
    </section>
  );
}

import { ACTIVITY_TYPES, type ActivityType } from '@atrium/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import { useId, useState } from 'react';
import { errorText } from '../../lib/api-error';
import { activityQueryOptions, type ActivityFilter, type ActivityScope } from '../../lib/queries/activity';
import { Alert } from '../ui/alert';
import { LoadMore } from '../ui/load-more';
import { Spinner } from '../ui/spinner';
import { ACTIVITY_TYPE_LABELS, activityVerb, actorName } from './activity-text';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const selectClass =
  'min-h-11 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600 sm:w-auto';

export interface ActivityFeedProps {
  scope: ActivityScope;
  /** A smaller heading level and no filters hint, for a side panel. */
  compact?: boolean;
}

/**
 * An activity feed (docs/PRODUCT.md#activity): who uploaded, replaced, renamed, moved, shared, deleted or restored what,
 * newest first, with filters by person and by type and "Load more". Used by the Activity page (a workspace) and by a
 * folder's Details (its subtree).
 */
export function ActivityFeed({ scope, compact = false }: ActivityFeedProps) {
  const [filter, setFilter] = useState<ActivityFilter>({ actor: '', type: '' });
  const feed = useInfiniteQuery(activityQueryOptions(scope, filter));
  const personId = useId();
  const typeId = useId();
  const people = feed.data?.pages[0]?.people ?? [];
  const entries = feed.data?.pages.flatMap((page) => page.entries) ?? [];
  const filtered = filter.actor !== '' || filter.type !== '';

  return (
    <div className="space-y-3" data-testid="activity-feed">
      <div className={`flex flex-col gap-2 ${compact ? '' : 'sm:flex-row sm:items-end'}`}>
        <div className="flex flex-col gap-1">
          <label htmlFor={personId} className="text-sm font-medium text-slate-700">
            Person
          </label>
          <select
            id={personId}
            className={selectClass}
            value={filter.actor}
            onChange={(event) => setFilter({ ...filter, actor: event.target.value })}
          >
            <option value="">Everyone</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {person.name}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={typeId} className="text-sm font-medium text-slate-700">
            Type
          </label>
          <select
            id={typeId}
            className={selectClass}
            value={filter.type}
            onChange={(event) => setFilter({ ...filter, type: event.target.value as ActivityType | '' })}
          >
            <option value="">All changes</option>
            {(Object.keys(ACTIVITY_TYPES) as ActivityType[]).map((type) => (
              <option key={type} value={type}>
                {ACTIVITY_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {feed.isPending ? (
        <Spinner label="Loading the activity…" />
      ) : feed.isError ? (
        <Alert>{errorText(feed.error) ?? 'The activity could not be loaded.'}</Alert>
      ) : entries.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-6 text-center">
          <History aria-hidden="true" className="mx-auto size-7 text-slate-400" />
          <p className="mt-2 font-medium text-slate-900">
            {filtered ? 'Nothing matches these filters.' : 'No activity yet.'}
          </p>
          {!filtered && (
            <p className="mt-1 text-sm text-slate-600">Uploads, renames, moves, shares and deletions show up here.</p>
          )}
        </div>
      ) : (
        <ol className="divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200" aria-label="Activity">
          {entries.map((entry) => (
            <li key={entry.id} className="flex flex-col gap-0.5 px-4 py-3 sm:flex-row sm:items-baseline sm:gap-3">
              <p className="min-w-0 flex-1 break-words text-sm text-slate-900">
                <span className="font-semibold">{actorName(entry)}</span> {activityVerb(entry)}
                {entry.item.trashed && entry.type !== 'deleted' && (
                  <span className="text-slate-600"> (now in the trash)</span>
                )}
              </p>
              <time dateTime={entry.at} className="shrink-0 text-sm text-slate-600">
                {when(entry.at)}
              </time>
            </li>
          ))}
        </ol>
      )}
      <LoadMore query={feed} centred />
    </div>
  );
}

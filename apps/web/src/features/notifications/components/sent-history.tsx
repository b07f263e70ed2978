import type { NotificationAudienceView, NotificationHistoryEntry } from '@atrium/contracts';
import { BellRing, Radio, TriangleAlert } from 'lucide-react';
import { Alert } from '../../../components/ui/alert';
import { LoadMore } from '../../../components/ui/load-more';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { useNotificationHistory } from '../api/notifications-api';

export function audienceText(audience: NotificationAudienceView): string {
  if (audience.type === 'all') return 'Everyone';
  const label = audience.name ?? audience.id ?? 'deleted';
  return audience.type === 'workspace' ? `Workspace ${label}` : `${label}${audience.name ? ` (${audience.id})` : ''}`;
}

function HistoryItem({ entry }: { entry: NotificationHistoryEntry }) {
  const by = entry.publishedBy ? (entry.publishedBy.name ?? entry.publishedBy.userId) : 'a deleted user';
  return (
    <li className="rounded-md bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200" data-testid="history-entry">
      <p className="break-words whitespace-pre-wrap text-slate-900">{entry.message}</p>
      <p className="mt-1 text-slate-600">
        To <strong className="font-medium">{audienceText(entry.audience)}</strong> · by {by} ·{' '}
        <time dateTime={entry.publishedAt}>{new Date(entry.publishedAt).toLocaleString()}</time>
      </p>
      <ul aria-label="Delivery" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-slate-700">
        <li className="inline-flex items-center gap-1">
          <Radio className="size-4 text-brand-600" aria-hidden="true" />
          Delivered live: <strong data-testid="delivered-live">{entry.deliveredLive}</strong>
        </li>
        <li className="inline-flex items-center gap-1">
          <BellRing className="size-4 text-brand-600" aria-hidden="true" />
          Push sent: <strong>{entry.pushSent}</strong>
        </li>
        <li className={`inline-flex items-center gap-1 ${entry.pushFailed > 0 ? 'text-red-700' : ''}`}>
          <TriangleAlert className="size-4" aria-hidden="true" />
          Push failed: <strong>{entry.pushFailed}</strong>
        </li>
      </ul>
    </li>
  );
}

/** The admin's history of published notifications with their delivery counts (refreshed every 15 s). */
export function SentHistory() {
  const history = useNotificationHistory();
  const entries = history.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <section aria-labelledby="sent-history-heading" className="mt-10">
      <h2 id="sent-history-heading" className="text-xl font-semibold text-slate-900">
        History
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Newest first. “Delivered live” counts open dashboards on every server; push counts grow while browsers are
        reached.
      </p>
      {history.isPending ? (
        <Spinner />
      ) : history.isError ? (
        <Alert size="base" className="mt-4">
          {isApiError(history.error) ? history.error.message : 'Could not load the sent messages.'}
        </Alert>
      ) : entries.length === 0 ? (
        <p className="mt-4 text-slate-600">No messages sent yet.</p>
      ) : (
        <>
          <ul aria-label="History" className="mt-4 space-y-3">
            {entries.map((entry) => (
              <HistoryItem key={entry.id} entry={entry} />
            ))}
          </ul>
          <LoadMore query={history} look="plain" />
        </>
      )}
    </section>
  );
}

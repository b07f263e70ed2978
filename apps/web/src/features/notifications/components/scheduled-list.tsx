import type { ScheduledNotification } from '@atrium/contracts';
import { CalendarClock, X } from 'lucide-react';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { showToast } from '../../../lib/toast';
import { useCancelScheduledNotification, useScheduledNotifications } from '../api/notifications-api';
import { audienceText } from './sent-history';

function ScheduledItem({
  item,
  cancelling,
  onCancel,
}: {
  item: ScheduledNotification;
  cancelling: boolean;
  onCancel: () => void;
}) {
  const when = new Date(item.sendAt).toLocaleString();
  const sending = item.state === 'sending';
  return (
    <li
      className="flex flex-col gap-2 rounded-md bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-start"
      data-testid="scheduled-entry"
    >
      <div className="min-w-0 flex-1">
        <p className="break-words whitespace-pre-wrap text-slate-900">{item.message}</p>
        <p className="mt-1 inline-flex flex-wrap items-center gap-1 text-slate-600">
          <CalendarClock className="size-4 text-brand-600" aria-hidden="true" />
          <time dateTime={item.sendAt}>{when}</time> · to{' '}
          <strong className="font-medium">{audienceText(item.audience)}</strong>
          {sending && <span className="rounded bg-amber-100 px-1.5 text-xs font-medium text-amber-800">sending</span>}
        </p>
      </div>
      <button
        type="button"
        disabled={cancelling || sending}
        aria-label={`Cancel (due ${when})`}
        onClick={onCancel}
        className="inline-flex min-h-11 items-center justify-center gap-1 self-start rounded-md px-3 py-2 text-red-700 ring-1 ring-slate-300 hover:bg-red-50 disabled:opacity-60"
      >
        <X className="size-4" aria-hidden="true" />
        {cancelling ? 'Cancelling…' : 'Cancel'}
      </button>
    </li>
  );
}

/** Messages scheduled for later and not sent yet, soonest first, each with Cancel. */
export function ScheduledList() {
  const scheduled = useScheduledNotifications();
  // Held here, not in the item: the item unmounts when the list refreshes, and its callbacks would not run.
  const cancel = useCancelScheduledNotification();
  const onCancel = (id: string) =>
    cancel.mutate(id, {
      onSuccess: () => showToast('success', 'Scheduled message cancelled'),
      onError: (error) =>
        showToast('error', isApiError(error) ? error.message : 'Could not cancel the scheduled message.'),
    });
  return (
    <section aria-labelledby="scheduled-heading" className="mt-10">
      <h2 id="scheduled-heading" className="text-xl font-semibold text-slate-900">
        Scheduled
      </h2>
      {scheduled.isPending ? (
        <Spinner />
      ) : scheduled.isError ? (
        <Alert size="base" className="mt-4">
          {isApiError(scheduled.error) ? scheduled.error.message : 'Could not load the scheduled messages.'}
        </Alert>
      ) : scheduled.data.length === 0 ? (
        <p className="mt-4 text-slate-600">No messages scheduled.</p>
      ) : (
        <ul aria-label="Scheduled" className="mt-4 space-y-3">
          {scheduled.data.map((item) => (
            <ScheduledItem
              key={item.id}
              item={item}
              cancelling={cancel.isPending && cancel.variables === item.id}
              onCancel={() => onCancel(item.id)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

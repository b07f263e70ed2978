import { PAGES } from '@atrium/contracts/pages';
import { NOTIFICATION_MESSAGE_MAX, NOTIFICATION_TEXTS, type SubscriberCount } from '@atrium/contracts';
import { BellRing, CalendarClock, Radio, Send, Users, type LucideIcon } from 'lucide-react';
import { useDeferredValue, useId, useState, type FormEvent } from 'react';
import { Navigate } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { isApiError } from '../../../lib/api-client';
import { showToast } from '../../../lib/toast';
import { Spinner } from '../../../components/ui/spinner';
import { useMe } from '../../../lib/me';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ScheduledList } from '../components/scheduled-list';
import { SentHistory } from '../components/sent-history';
import {
  publishErrorMessage,
  usePeopleChoices,
  usePublishNotification,
  useScheduleNotification,
  useSubscriberCount,
  useWorkspaceChoices,
  type Audience,
} from '../api/notifications-api';

/** The admin's figures: the spec's subscriber count, the dashboards open now and the browsers that get push. */
const figures: {
  label: string;
  hint: string;
  value: (count: SubscriberCount) => number;
  testId: string;
  Icon: LucideIcon;
}[] = [
  {
    label: 'Active subscribers',
    hint: 'users subscribed to notifications',
    value: (c) => c.count,
    testId: 'subscriber-count',
    Icon: Users,
  },
  {
    label: 'Open now',
    hint: 'live dashboard streams: they see a message at once',
    value: (c) => c.openStreams,
    testId: 'open-streams',
    Icon: Radio,
  },
  {
    label: 'Push',
    hint: 'browsers subscribed to push: they get it even when closed',
    value: (c) => c.pushBrowsers,
    testId: 'push-browsers',
    Icon: BellRing,
  },
];

/** A `datetime-local` value (minutes) for a date, in the browser's time zone. */
const localInputValue = (date: Date) => {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
};

const inputClass =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30';

/** "Send to": everyone (the default), one of the admin's workspaces, or one person found in the directory. */
function AudiencePicker({ audience, onChange }: { audience: Audience; onChange: (next: Audience) => void }) {
  const kind = audience.kind;
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const workspaces = useWorkspaceChoices(kind === 'workspace');
  const people = usePeopleChoices(kind === 'person' ? deferred : '');
  const name = useId();
  // Choosing a workspace or a person starts with none picked: sending then asks for one (never silently everyone).
  const choose = (next: Audience['kind']) =>
    onChange(
      next === 'workspace'
        ? { kind: 'workspace', id: workspaces.data?.[0]?.id ?? '' }
        : next === 'person'
          ? { kind: 'person', ownerKey: '' }
          : { kind: 'everyone' },
    );
  const options: [Audience['kind'], string][] = [
    ['everyone', 'Everyone'],
    ['workspace', 'A workspace'],
    ['person', 'One person'],
  ];
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">Send to</legend>
      <div className="flex flex-wrap gap-4">
        {options.map(([value, label]) => (
          <label key={value} className="inline-flex items-center gap-2 text-sm text-slate-800">
            <input type="radio" name={name} checked={kind === value} onChange={() => choose(value)} />
            {label}
          </label>
        ))}
      </div>
      {kind === 'workspace' &&
        (workspaces.data && workspaces.data.length === 0 ? (
          <p className="text-sm text-slate-600">You are not a member of any workspace yet.</p>
        ) : (
          <select
            aria-label="Workspace"
            className={inputClass}
            value={audience.kind === 'workspace' ? audience.id : ''}
            onChange={(event) => onChange({ kind: 'workspace', id: event.target.value })}
          >
            <option value="">Choose a workspace</option>
            {(workspaces.data ?? []).map((space) => (
              <option key={space.id} value={space.id}>
                {space.name}
              </option>
            ))}
          </select>
        ))}
      {kind === 'person' && (
        <div className="space-y-2">
          <input
            type="search"
            aria-label="Find a person"
            placeholder="Name, nickname or email"
            className={inputClass}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
          {audience.kind === 'person' && audience.ownerKey && (
            <p className="text-sm text-slate-700" role="status">
              To: <strong>{audience.ownerKey}</strong>
            </p>
          )}
          <ul aria-label="People found" className="space-y-1">
            {(people.data ?? []).map((person) => (
              <li key={person.ownerKey}>
                <button
                  type="button"
                  onClick={() => onChange({ kind: 'person', ownerKey: person.ownerKey })}
                  aria-pressed={audience.kind === 'person' && audience.ownerKey === person.ownerKey}
                  className="rounded-md px-2 py-1 text-sm text-brand-700 hover:bg-brand-50 aria-pressed:bg-brand-50 aria-pressed:font-semibold"
                >
                  {person.name ?? person.nickname ?? person.ownerKey}
                  {person.email ? ` · ${person.email}` : ''}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </fieldset>
  );
}

/**
 * /dashboard/admin/push-message: admins send a notification to everyone (the default), one workspace's members or
 * one person. Non-admins go to /dashboard.
 */
export default function PushMessagePage() {
  useDocumentTitle('Send Push Message');
  const me = useMe();
  const isAdmin = me.data?.isAdmin === true;
  const count = useSubscriberCount(isAdmin);
  const publish = usePublishNotification();
  const schedule = useScheduleNotification();
  const [message, setMessage] = useState('');
  const [audience, setAudience] = useState<Audience>({ kind: 'everyone' });
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [sendAt, setSendAt] = useState('');
  const fieldId = useId();
  const hintId = useId();
  const whenName = useId();
  const busy = publish.isPending || schedule.isPending;

  if (me.isPending) return <Spinner />;
  if (!isAdmin) return <Navigate to={PAGES.dashboard.path} replace />;

  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!message.trim()) {
      showToast('warning', NOTIFICATION_TEXTS.blankMessage);
      return;
    }
    if (audience.kind === 'workspace' && !audience.id) {
      showToast('warning', 'Choose the workspace to send to.');
      return;
    }
    if (audience.kind === 'person' && !audience.ownerKey) {
      showToast('warning', 'Choose the person to send to.');
      return;
    }
    if (when === 'later') {
      if (!sendAt) {
        showToast('warning', 'Choose when to send the message.');
        return;
      }
      schedule.mutate(
        { message, audience, sendAt },
        {
          onSuccess: (scheduled) => {
            showToast('success', `Scheduled for ${new Date(scheduled.sendAt).toLocaleString()}`);
            setMessage('');
            setSendAt('');
          },
          onError: (error) =>
            showToast(
              'error',
              isApiError(error) && error.status < 500 ? error.message : 'Could not schedule the message.',
            ),
        },
      );
      return;
    }
    publish.mutate(
      { message, audience },
      {
        onSuccess: () => {
          showToast('success', 'Notification sent');
          setMessage('');
        },
        onError: (error) => showToast('error', publishErrorMessage(error)),
      },
    );
  };

  return (
    <section className="mx-auto max-w-2xl px-4 py-8 sm:py-12">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Send Push Message</h1>
      <p className="mt-2 text-slate-600">Everyone signed in sees it at once; subscribed browsers also get a push.</p>

      <dl
        aria-live="polite"
        className="mt-6 grid gap-2 rounded-md bg-white px-4 py-3 text-sm text-slate-700 shadow-sm ring-1 ring-slate-200 sm:grid-cols-[auto_1fr] sm:gap-x-4"
      >
        {figures.map(({ label, hint, value, testId, Icon }) => (
          <div key={testId} className="contents">
            <dt className="flex items-center gap-2">
              <Icon className="size-4 text-brand-600" aria-hidden="true" />
              {label}:{' '}
              <strong data-testid={testId}>
                {count.isPending ? '…' : count.isError ? 'unavailable' : value(count.data)}
              </strong>
            </dt>
            <dd className="pl-6 text-slate-600 sm:pl-0">{hint}</dd>
          </div>
        ))}
      </dl>

      <form onSubmit={send} className="mt-6 space-y-3" noValidate>
        <AudiencePicker audience={audience} onChange={setAudience} />
        <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800">
          Message
        </label>
        <textarea
          id={fieldId}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          maxLength={NOTIFICATION_MESSAGE_MAX}
          rows={5}
          aria-describedby={hintId}
          placeholder="Write the notification…"
          className={inputClass}
        />
        <p id={hintId} className="text-xs text-slate-500">
          {message.length}/{NOTIFICATION_MESSAGE_MAX} characters
        </p>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">When</legend>
          <div className="flex flex-wrap gap-4">
            <label className="inline-flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" name={whenName} checked={when === 'now'} onChange={() => setWhen('now')} />
              Send now
            </label>
            <label className="inline-flex items-center gap-2 text-sm text-slate-800">
              <input type="radio" name={whenName} checked={when === 'later'} onChange={() => setWhen('later')} />
              Schedule…
            </label>
          </div>
          {when === 'later' && (
            <input
              type="datetime-local"
              aria-label="Send at"
              className={inputClass}
              value={sendAt}
              min={localInputValue(new Date())}
              onChange={(event) => setSendAt(event.target.value)}
            />
          )}
        </fieldset>
        <button type="submit" disabled={busy} className={`${buttonClass()} min-h-11`}>
          {when === 'later' ? (
            <CalendarClock className="size-4" aria-hidden="true" />
          ) : (
            <Send className="size-4" aria-hidden="true" />
          )}
          {when === 'later'
            ? schedule.isPending
              ? 'Scheduling…'
              : 'Schedule'
            : publish.isPending
              ? 'Sending…'
              : 'Send'}
        </button>
      </form>

      <ScheduledList />

      <SentHistory />
    </section>
  );
}

import { NOTIFICATION_MESSAGE_MAX, NOTIFICATION_TEXTS, type SubscriberCount } from '@atrium/contracts';
import { BellRing, Radio, Send, Users, type LucideIcon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Navigate } from 'react-router';
import { showToast } from '../../../lib/toast';
import { Spinner } from '../../../components/ui/spinner';
import { useMe } from '../../../lib/me';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { publishErrorMessage, usePublishNotification, useSubscriberCount } from '../api/notifications-api';

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

/** /dashboard/admin/push-message: admins send a notification to everyone. Non-admins go to /dashboard. */
export default function PushMessagePage() {
  useDocumentTitle('Send Push Message');
  const me = useMe();
  const isAdmin = me.data?.isAdmin === true;
  const count = useSubscriberCount(isAdmin);
  const publish = usePublishNotification();
  const [message, setMessage] = useState('');
  const fieldId = useId();
  const hintId = useId();

  if (me.isPending) return <Spinner />;
  if (!isAdmin) return <Navigate to="/dashboard" replace />;

  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!message.trim()) {
      showToast('warning', NOTIFICATION_TEXTS.blankMessage);
      return;
    }
    publish.mutate(message, {
      onSuccess: () => {
        showToast('success', 'Notification sent');
        setMessage('');
      },
      onError: (error) => showToast('error', publishErrorMessage(error)),
    });
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
          className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
        />
        <p id={hintId} className="text-xs text-slate-500">
          {message.length}/{NOTIFICATION_MESSAGE_MAX} characters
        </p>
        <button
          type="submit"
          disabled={publish.isPending}
          className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-60"
        >
          <Send className="size-4" aria-hidden="true" />
          {publish.isPending ? 'Sending…' : 'Send'}
        </button>
      </form>
    </section>
  );
}

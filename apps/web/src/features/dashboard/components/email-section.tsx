import type { EmailPreferences } from '@atrium/contracts';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { useEmailPreferences, useUpdateEmailPreferences } from '../api/email-preferences';

type Choice = 'shareNotices' | 'memberNotices' | 'dailyDigest';

const CHOICES: { key: Choice; label: string; help: string }[] = [
  {
    key: 'shareNotices',
    label: 'When something is shared with me',
    help: 'An email for each file or folder shared with you.',
  },
  { key: 'memberNotices', label: 'When I am added to a workspace', help: 'An email when someone adds or invites you.' },
  {
    key: 'dailyDigest',
    label: 'Daily digest',
    help: 'One email a day with your unread notifications, only when there are some.',
  },
];

/** Profile → Email (docs/PRODUCT.md#email): which emails the person wants; why none can be sent when that is so. */
export function EmailSection() {
  const preferences = useEmailPreferences();
  const update = useUpdateEmailPreferences();
  return (
    <section aria-labelledby="email-heading" className="mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id="email-heading" className="text-lg font-semibold text-slate-900">
        Email
      </h2>
      {preferences.isPending ? (
        <Spinner />
      ) : preferences.isError ? (
        <Alert className="mt-2">{errorText(preferences.error)}</Alert>
      ) : (
        <EmailChoices
          preferences={preferences.data}
          busy={update.isPending}
          onChange={(key, value) => update.mutate({ [key]: value })}
        />
      )}
      {update.isError && <Alert className="mt-2">{errorText(update.error)}</Alert>}
    </section>
  );
}

function EmailChoices({
  preferences,
  busy,
  onChange,
}: {
  preferences: EmailPreferences;
  busy: boolean;
  onChange: (key: Choice, value: boolean) => void;
}) {
  const reason = !preferences.available
    ? 'Email is off on this server: nothing is sent.'
    : preferences.address === null
      ? 'Your account has no email address, so nothing can be sent to you.'
      : null;
  return (
    <>
      <p className="mt-1 text-sm text-slate-600">
        {reason ?? `Emails go to ${preferences.address}. Each one has a link to unsubscribe.`}
      </p>
      <fieldset className="mt-4 space-y-3" disabled={reason !== null}>
        <legend className="sr-only">Emails I want</legend>
        {CHOICES.map(({ key, label, help }) => (
          <label key={key} className="flex items-start gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="mt-0.5 size-4"
              checked={preferences[key]}
              disabled={busy || reason !== null}
              onChange={(event) => onChange(key, event.target.checked)}
            />
            <span>
              <span className="font-medium text-slate-900">{label}</span>
              <span className="block text-slate-600">{help}</span>
            </span>
          </label>
        ))}
      </fieldset>
    </>
  );
}

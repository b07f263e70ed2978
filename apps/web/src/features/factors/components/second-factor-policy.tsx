import { MFA_POLICIES, type MfaPolicy } from '@atrium/contracts';
import { Alert } from '../../../components/ui/alert';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { useMfaPolicy, useSetMfaPolicy } from '../api/factors';

const LABELS: Record<MfaPolicy, [string, string]> = {
  nobody: ['Nobody', 'A second factor is optional for everyone.'],
  admins: ['Admins', 'Admins must use an authenticator app or a passkey.'],
  everyone: ['Everyone', 'Everyone must use an authenticator app or a passkey.'],
};

/** Admin settings: who must have a second factor (docs/PRODUCT.md#second-factors). */
export function SecondFactorPolicy() {
  const policy = useMfaPolicy();
  const update = useSetMfaPolicy();
  return (
    <section className="mx-auto max-w-6xl px-4 pb-8">
      <fieldset className="rounded-md bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <legend className="sr-only">Second factor required for</legend>
        <h2 className="text-lg font-semibold text-slate-900" aria-hidden="true">
          Second factor required for
        </h2>
        {policy.isPending ? (
          <Spinner />
        ) : policy.isError ? (
          <Alert className="mt-2">{errorText(policy.error)}</Alert>
        ) : (
          <div className="mt-2 grid gap-2 sm:grid-cols-3">
            {MFA_POLICIES.map((value) => (
              <label
                key={value}
                className="flex min-h-11 items-start gap-2 rounded-md p-2 text-sm text-slate-700 ring-1 ring-slate-200 has-[:checked]:ring-brand-600"
              >
                <input
                  type="radio"
                  name="mfa-policy"
                  value={value}
                  className="mt-0.5 size-4"
                  checked={policy.data.policy === value}
                  disabled={update.isPending}
                  onChange={() => update.mutate(value)}
                />
                <span>
                  <span className="font-medium text-slate-900">{LABELS[value][0]}</span>
                  <span className="block text-slate-600">{LABELS[value][1]}</span>
                </span>
              </label>
            ))}
          </div>
        )}
        {update.isError && <Alert className="mt-2">{errorText(update.error)}</Alert>}
      </fieldset>
    </section>
  );
}

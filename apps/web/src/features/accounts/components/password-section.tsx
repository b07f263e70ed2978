import { PASSWORD_MIN_LENGTH } from '@atrium/contracts/texts';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { errorText } from '../../../lib/api-error';
import { useChangePassword } from '../api/invitations-api';
import { PasswordFields, passwordsReady } from './password-fields';

/** The profile's "Password" section (local accounts): change it; the other sessions end (docs/PRODUCT.md#invitations). */
export function PasswordSection() {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const change = useChangePassword();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!current || !passwordsReady(password, confirm)) return;
    change.mutate(
      { currentPassword: current, newPassword: password },
      {
        onSuccess: () => {
          setCurrent('');
          setPassword('');
          setConfirm('');
        },
      },
    );
  };

  return (
    <section aria-labelledby="password-title" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id="password-title" className="text-lg font-semibold text-slate-900">
        Password
      </h2>
      <p className="mt-1 text-sm text-slate-600">Changing it signs you out everywhere else.</p>
      <form onSubmit={submit} className="mt-3 max-w-md space-y-3" noValidate>
        <TextField
          label="Current password"
          type="password"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
          required
        />
        <PasswordFields
          label="New password"
          password={password}
          confirm={confirm}
          onPassword={setPassword}
          onConfirm={setConfirm}
          minLength={PASSWORD_MIN_LENGTH}
        />
        {change.error && <Alert variant="box">{errorText(change.error)}</Alert>}
        {change.isSuccess && (
          <p role="status" className="text-sm text-green-700">
            Password changed.{' '}
            {change.data.otherSessionsEnded > 0 &&
              `${change.data.otherSessionsEnded} other ${change.data.otherSessionsEnded === 1 ? 'session was' : 'sessions were'} signed out.`}
          </p>
        )}
        <button
          type="submit"
          className={buttonClass()}
          disabled={change.isPending || !current || !passwordsReady(password, confirm)}
        >
          {change.isPending ? 'Saving…' : 'Change password'}
        </button>
      </form>
    </section>
  );
}

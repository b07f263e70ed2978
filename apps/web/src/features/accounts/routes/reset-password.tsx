// /reset-password/:token: set a password through a link (no sign-in; docs/PRODUCT.md#invitations).
import type { PublicPasswordReset } from '@atrium/contracts';
import { PASSWORD_MIN_LENGTH } from '@atrium/contracts/texts';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNoindexPage } from '../../../lib/use-page-meta';
import { getPasswordReset, setPasswordWithLink } from '../api/public-accounts-api';
import { PasswordFields, passwordsReady } from '../components/password-fields';
import { AccountCard } from './invite';

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; reset: PublicPasswordReset }
  | { kind: 'gone'; message: string }
  | { kind: 'done' };

export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useDocumentTitle('Set a password');
  useNoindexPage();

  useEffect(() => {
    let live = true;
    getPasswordReset(token).then(
      (reset) => live && setState({ kind: 'ready', reset }),
      (reason: unknown) => live && setState({ kind: 'gone', message: errorText(reason) ?? 'This link is not valid.' }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  if (state.kind === 'loading') return <Spinner label="Loading…" />;
  if (state.kind === 'gone' || state.kind === 'done') {
    return (
      <AccountCard title="Set a password">
        {state.kind === 'gone' ? (
          <Alert variant="box">{state.message}</Alert>
        ) : (
          <p role="status" className="text-sm text-slate-700">
            Your password is set. Every earlier session was signed out.
          </p>
        )}
        <a href="/login" className={buttonClass(state.kind === 'done' ? 'primary' : 'secondary')}>
          Go to sign-in
        </a>
      </AccountCard>
    );
  }

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!passwordsReady(password, confirm)) return;
    setBusy(true);
    setError(null);
    try {
      await setPasswordWithLink(token, password);
      setState({ kind: 'done' });
    } catch (reason) {
      setError(errorText(reason) ?? 'Could not set the password.');
      setBusy(false);
    }
  };

  return (
    <AccountCard title="Set a password">
      <p className="text-sm text-slate-600">
        For <strong className="text-slate-900">{state.reset.name}</strong> (username{' '}
        <strong className="text-slate-900">{state.reset.username}</strong>).
      </p>
      <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
        <PasswordFields
          label="New password"
          password={password}
          confirm={confirm}
          onPassword={setPassword}
          onConfirm={setConfirm}
          minLength={PASSWORD_MIN_LENGTH}
        />
        {error && <Alert variant="box">{error}</Alert>}
        <button
          type="submit"
          className={`${buttonClass()} w-full`}
          disabled={busy || !passwordsReady(password, confirm)}
        >
          {busy ? 'Saving…' : 'Set password'}
        </button>
      </form>
    </AccountCard>
  );
}

// /signup: ask for a link to create an account (no sign-in; docs/PRODUCT.md#self-sign-up). zod-free:
// api/public-accounts-api.ts.
import type { SignUpInfo } from '@atrium/contracts';
import { ACCOUNT_TEXTS } from '@atrium/contracts/texts';
import { useEffect, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { errorText } from '../../../lib/api-error';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNoindexPage } from '../../../lib/use-page-meta';
import { getSignUpInfo, requestSignUp } from '../api/public-accounts-api';
import { AccountCard } from './invite';

type State = { kind: 'loading' } | { kind: 'ready'; info: SignUpInfo } | { kind: 'sent' };

export default function SignUpPage() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useDocumentTitle('Sign up');
  useNoindexPage();

  useEffect(() => {
    let live = true;
    getSignUpInfo().then(
      (info) => live && setState({ kind: 'ready', info }),
      () => live && setState({ kind: 'ready', info: { open: false, domains: [] } }),
    );
    return () => {
      live = false;
    };
  }, []);

  if (state.kind === 'loading') return <Spinner label="Loading…" />;
  if (state.kind === 'sent')
    return (
      <AccountCard title="Almost there">
        <p role="status" className="text-sm text-slate-700">
          {ACCOUNT_TEXTS.signUpRequested}
        </p>
        <a href="/login" className={buttonClass('secondary')}>
          Go to sign-in
        </a>
      </AccountCard>
    );
  if (!state.info.open)
    return (
      <AccountCard title="Sign up">
        <Alert variant="box">{ACCOUNT_TEXTS.signUpClosed}</Alert>
        <a href="/login" className={buttonClass('secondary')}>
          Go to sign-in
        </a>
      </AccountCard>
    );

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await requestSignUp(email.trim());
      setState({ kind: 'sent' });
    } catch (reason) {
      setError(errorText(reason) ?? 'Could not send the link. Please try again.');
      setBusy(false);
    }
  };

  return (
    <AccountCard title="Create your account">
      <p className="text-sm text-slate-600">
        Sign-up is open to email addresses at{' '}
        <strong className="break-all text-slate-900">{state.info.domains.join(', ')}</strong>. We email you a link to
        confirm the address; then you choose your username and password.
      </p>
      <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
        <TextField
          label="Email address"
          type="email"
          value={email}
          onChange={setEmail}
          autoComplete="email"
          required
          autoFocus
        />
        {error && <Alert variant="box">{error}</Alert>}
        <button type="submit" className={`${buttonClass()} w-full`} disabled={busy || !email.trim()}>
          {busy ? 'Sending…' : 'Email me a link'}
        </button>
      </form>
      <p className="text-sm text-slate-600">
        Have an account?{' '}
        <a href="/login" className="font-medium text-brand-700 hover:underline">
          Sign in
        </a>
      </p>
    </AccountCard>
  );
}

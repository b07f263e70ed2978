// /invite/:token: the page an invitee opens (no sign-in; docs/PRODUCT.md#invitations). zod-free: api/public-accounts-api.ts.
import type { PublicInvitation } from '@atrium/contracts';
import { PASSWORD_MIN_LENGTH } from '@atrium/contracts/texts';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { Logo } from '../../../components/ui/logo';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { errorText } from '../../../lib/api-error';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNoindexPage } from '../../../lib/use-page-meta';
import { acceptInvitation, getInvitation } from '../api/public-accounts-api';
import { PasswordFields, passwordsReady } from '../components/password-fields';

type State = { kind: 'loading' } | { kind: 'ready'; invitation: PublicInvitation } | { kind: 'gone'; message: string };

const ROLE_TEXT: Record<string, string> = {
  owner: 'an owner',
  editor: 'an editor',
  viewer: 'a viewer',
  admin: 'an admin',
  user: 'a member',
};

/** The frame of the public account pages: the logo and a card. */
export function AccountCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-dvh items-start justify-center bg-slate-50 px-4 py-10 sm:items-center">
      <div className="w-full max-w-md space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <Logo />
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {children}
      </div>
    </main>
  );
}

export default function InvitePage() {
  const { token = '' } = useParams();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [username, setUsername] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useDocumentTitle(state.kind === 'ready' && state.invitation.signUp ? 'Sign up' : 'Invitation');
  useNoindexPage();

  useEffect(() => {
    let live = true;
    getInvitation(token).then(
      (invitation) => live && setState({ kind: 'ready', invitation }),
      (reason: unknown) =>
        live && setState({ kind: 'gone', message: errorText(reason) ?? 'This invitation is not valid.' }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  if (state.kind === 'loading') return <Spinner label="Loading the invitation…" />;
  if (state.kind === 'gone') {
    return (
      <AccountCard title="Invitation">
        <Alert variant="box">{state.message}</Alert>
        <a href="/login" className={buttonClass('secondary')}>
          Go to sign-in
        </a>
      </AccountCard>
    );
  }

  const { invitation } = state;
  const what = invitation.workspaceName ? `the workspace ${invitation.workspaceName}` : 'Atrium';
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!passwordsReady(password, confirm)) return;
    setBusy(true);
    setError(null);
    try {
      await acceptInvitation(token, {
        username: username.trim(),
        password,
        ...(name.trim() ? { name: name.trim() } : {}),
      });
      window.location.assign('/dashboard');
    } catch (reason) {
      setError(errorText(reason) ?? 'Could not create the account.');
      setBusy(false);
    }
  };

  return (
    <AccountCard title={invitation.signUp ? 'Create your account' : `Join ${invitation.workspaceName ?? 'Atrium'}`}>
      {invitation.signUp ? (
        <p className="text-sm text-slate-600">
          Your email address <strong className="break-all text-slate-900">{invitation.email}</strong> is confirmed.
          Choose a username and a password.
        </p>
      ) : (
        <p className="text-sm text-slate-600">
          <strong className="text-slate-900">{invitation.invitedBy}</strong> invited{' '}
          <strong className="break-all text-slate-900">{invitation.email}</strong> to {what} as{' '}
          {ROLE_TEXT[invitation.role] ?? invitation.role}. Create your account to join.
        </p>
      )}
      <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
        <TextField
          label="Username"
          value={username}
          onChange={setUsername}
          autoComplete="username"
          required
          hint="Letters, digits, dots, dashes and underscores. You can also sign in with your email address."
        />
        <TextField label="Your name" value={name} onChange={setName} autoComplete="name" />
        <PasswordFields
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
          disabled={busy || !username.trim() || !passwordsReady(password, confirm)}
        >
          {busy ? 'Creating your account…' : invitation.signUp ? 'Create account' : 'Create account and join'}
        </button>
      </form>
    </AccountCard>
  );
}

import { PAGES } from '@atrium/contracts/pages';
import {
  ACCOUNT_DISABLED_MESSAGE,
  SESSION_END_MESSAGES,
  invalidCredentialsMessage,
  isSessionEndReason,
} from '@atrium/contracts/texts';
import type { MeResponse } from '@atrium/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { Fingerprint, LogIn, ShieldCheck } from 'lucide-react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { showToast } from '../../../lib/toast';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-error';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { DEFAULT_PROVIDER_NAME, useAuthConfig } from '../api/auth-config';
import { ForgotPassword } from '../components/forgot-password';
import { browserNavigation, oidcStartUrl, signInWithPasskey, useLogin } from '../api/login';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ENDPOINTS } from '@atrium/contracts';
import { call } from '../../../lib/api-client';
import { meQueryOptions, useMe, writeBrowserFlags } from '../../../lib/me';
import { LoginBackground } from '../components/login-background';
import { SecondFactorStep } from '../components/second-factor-step';

export const GENERIC_ERROR = 'An error occurred during login. Please try again.';
export const invalidCredentials = invalidCredentialsMessage;
export const couldNotConnect = (provider: string) => `Could not connect to ${provider}. Please try again.`;
/** This page's address is not the server's PUBLIC_URL: sign-in is refused here (CSRF), so say where it works. */
export const wrongAddress = (here: string, publicUrl: string) =>
  `This page was opened at ${here}, but this server only accepts sign-ins at ${publicUrl} (its PUBLIC_URL). Open ${publicUrl} instead, or ask the administrator to set PUBLIC_URL to ${here}.`;

/** Only same-site paths are accepted as the page to return to. */
const safePath = (value: unknown): string | undefined =>
  typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\')
    ? value
    : undefined;

export interface LoginPageProps {
  /** Called after a successful admin sign-in (the app layer subscribes to notifications here, docs/PRODUCT.md#admin-sign-in). */
  onSignedIn?: (me: MeResponse) => unknown;
}

export default function LoginPage({ onSignedIn }: LoginPageProps = {}) {
  useDocumentTitle('Sign in');
  const me = useMe();
  const config = useAuthConfig();
  // The link to /signup shows only while self-sign-up is open (docs/PRODUCT.md#self-sign-up).
  const signUp = useQuery({ queryKey: ['sign-up-info'], queryFn: () => call(ENDPOINTS.accounts.signUpInfo) });
  const login = useLogin();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const [dismissedQueryError, setDismissedQueryError] = useState(false);
  // After a right password: the second factor's step (docs/PRODUCT.md#second-factors).
  const [factorStep, setFactorStep] = useState<'code' | 'enrol' | null>(null);
  const queryClient = useQueryClient();

  const provider = config.data?.providerName ?? DEFAULT_PROVIDER_NAME;
  const here = window.location.origin;
  const publicUrl = config.data?.publicUrl;
  const misplaced = publicUrl !== undefined && publicUrl !== here ? wrongAddress(here, publicUrl) : null;
  const from = safePath((location.state as { from?: unknown } | null)?.from) ?? PAGES.dashboard.path;
  const queryError = dismissedQueryError ? null : searchParams.get('error');
  // Why the last session ended, as the server said (docs/PRODUCT.md#session-end-reasons).
  const reason = dismissedQueryError ? null : searchParams.get('reason');
  const ended = isSessionEndReason(reason) ? SESSION_END_MESSAGES[reason] : null;
  const shown =
    message ??
    misplaced ??
    (queryError === 'oidc_unavailable'
      ? couldNotConnect(provider)
      : queryError === 'account_disabled'
        ? ACCOUNT_DISABLED_MESSAGE
        : queryError
          ? GENERIC_ERROR
          : ended);

  // The identity provider's sign-in failed after it began (the server sent us back here).
  useEffect(() => {
    if (queryError === 'oidc_failed') showToast('error', 'Login failed');
  }, [queryError]);

  // Signed in (already, or just now): the page asked for, else the dashboard.
  if (me.data) return <Navigate to={from} replace />;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDismissedQueryError(true);
    setMessage(null);
    try {
      const signedIn = await login.mutateAsync({ username, password });
      void onSignedIn?.(signedIn); // not awaited: a permission prompt must not hold up the navigation
      await navigate(from, { replace: true }); // also done by the <Navigate> above once the cache is primed
    } catch (error) {
      if (isApiError(error) && error.code === 'SECOND_FACTOR_REQUIRED') setFactorStep('code');
      else if (isApiError(error) && error.code === 'SECOND_FACTOR_ENROLMENT_REQUIRED') setFactorStep('enrol');
      else if (isApiError(error) && error.code === 'INVALID_CREDENTIALS') setMessage(invalidCredentials(provider));
      else if (isApiError(error) && error.code === 'FORBIDDEN') setMessage(error.message);
      else if (isApiError(error) && (error.code === 'RATE_LIMITED' || error.code === 'PUBLIC_URL_MISMATCH'))
        setMessage(error.message);
      else {
        setMessage(GENERIC_ERROR);
        showToast('error', 'Login failed');
      }
    }
  }

  /** The second step finished the sign-in. */
  function signedInWithFactor(signedIn: MeResponse) {
    writeBrowserFlags(signedIn);
    queryClient.setQueryData(meQueryOptions().queryKey, signedIn);
    void onSignedIn?.(signedIn);
    void navigate(from, { replace: true });
  }

  /** A passkey alone signs in (no second factor follows). */
  async function withPasskey() {
    setDismissedQueryError(true);
    setMessage(null);
    try {
      signedInWithFactor(await signInWithPasskey());
    } catch (error) {
      if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'))
        setMessage('The passkey prompt was closed before it finished.');
      else if (isApiError(error) && ['INVALID_CREDENTIALS', 'BAD_REQUEST', 'RATE_LIMITED'].includes(error.code))
        setMessage(error.message);
      else setMessage(GENERIC_ERROR);
    }
  }

  function continueWithProvider() {
    setDismissedQueryError(true);
    if (config.isError || config.data?.oidcEnabled === false) {
      setMessage(couldNotConnect(provider));
      return;
    }
    // The provider would send the browser back to PUBLIC_URL, where this sign-in did not start.
    if (misplaced) {
      setMessage(misplaced);
      return;
    }
    setMessage(null);
    setRedirecting(true);
    browserNavigation.assign(oidcStartUrl(from));
  }

  const busy = login.isPending || redirecting;

  return (
    <div className="relative flex min-h-screen items-center justify-center px-4 py-12">
      <LoginBackground />
      <main
        id="main"
        className="relative w-full max-w-md rounded-2xl bg-white/95 p-6 shadow-2xl ring-1 ring-black/5 backdrop-blur sm:p-8"
      >
        <Link to="/" className="text-lg font-bold tracking-tight text-brand-700">
          Atrium
        </Link>
        <h1 className="mt-4 text-2xl font-semibold tracking-tight text-slate-900">Sign in</h1>
        <p className="mt-1 text-sm text-slate-600">Welcome back. Sign in to open your workspace.</p>

        {me.isPending ? (
          <Spinner label="Checking your session…" />
        ) : factorStep ? (
          <SecondFactorStep
            kind={factorStep}
            onSignedIn={signedInWithFactor}
            onRestart={() => {
              setFactorStep(null);
              setPassword('');
            }}
          />
        ) : (
          <>
            {shown && (
              <Alert variant="box" className="mt-5">
                {shown}
              </Alert>
            )}
            {redirecting && (
              <p
                role="status"
                className="mt-5 flex items-center gap-2 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900"
              >
                <span
                  aria-hidden="true"
                  className="size-4 animate-spin rounded-full border-2 border-brand-100 border-t-brand-600"
                />
                Redirecting to {provider}…
              </p>
            )}

            <form className="mt-5 space-y-4" onSubmit={(event) => void onSubmit(event)} noValidate={false}>
              <div>
                <label htmlFor="username" className="block text-sm font-medium text-slate-700">
                  Username
                </label>
                <input
                  id="username"
                  name="username"
                  autoComplete="username"
                  required
                  value={username}
                  onChange={(event) => setUsername(event.target.value)}
                  className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-slate-900 focus:border-brand-600"
                />
              </div>
              <div>
                <label htmlFor="password" className="block text-sm font-medium text-slate-700">
                  Password
                </label>
                <input
                  id="password"
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-slate-900 focus:border-brand-600"
                />
              </div>
              <button type="submit" disabled={busy} className={`${buttonClass()} min-h-11 w-full`}>
                <LogIn aria-hidden="true" className="size-4" />
                {login.isPending ? 'Signing in…' : 'Sign In'}
              </button>
            </form>
            {config.data?.mailEnabled && <ForgotPassword />}
            {signUp.data?.open && (
              <p className="mt-3 text-sm text-slate-600">
                New here?{' '}
                <Link to={PAGES.signup.path} className="font-medium text-brand-700 hover:underline">
                  Create an account
                </Link>
              </p>
            )}

            <div className="my-5 flex items-center gap-3 text-xs uppercase tracking-wide text-slate-400">
              <span className="h-px flex-1 bg-slate-200" />
              or
              <span className="h-px flex-1 bg-slate-200" />
            </div>

            <button
              type="button"
              onClick={continueWithProvider}
              disabled={busy}
              className={`${buttonClass('secondary')} min-h-11 w-full`}
            >
              <ShieldCheck aria-hidden="true" className="size-4 text-brand-600" />
              Continue with {provider}
            </button>
            <button
              type="button"
              onClick={() => void withPasskey()}
              disabled={busy}
              className={`${buttonClass('secondary')} mt-3 min-h-11 w-full`}
            >
              <Fingerprint aria-hidden="true" className="size-4 text-brand-600" />
              Sign in with a passkey
            </button>
          </>
        )}
      </main>
    </div>
  );
}

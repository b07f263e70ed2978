import type { TotpEnrolment } from '@atrium/contracts';
import { ShieldCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { errorText } from '../../../lib/api-error';
import {
  confirmTotp,
  regenerateRecoveryCodes,
  removeTotp,
  startTotp,
  useRefreshFactors,
  useSecondFactors,
} from '../api/factors';
import { Passkeys } from './passkeys';
import { RecoveryCodes } from './recovery-codes';

type Mode =
  | { kind: 'idle' }
  | { kind: 'enrolling'; enrolment: TotpEnrolment }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'confirm'; action: 'off' | 'regenerate' };

/** A six-digit code field (or the account password) with its submit button. */
function CodeForm({
  label,
  submit,
  busyText,
  onSubmit,
  onCancel,
  error,
  password = false,
}: {
  label: string;
  submit: string;
  busyText: string;
  onSubmit(code: string): Promise<void>;
  onCancel(): void;
  error: string | null;
  password?: boolean;
}) {
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    try {
      await onSubmit(code);
    } finally {
      setBusy(false);
      setCode('');
    }
  }
  return (
    <form className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={(event) => void send(event)}>
      <TextField
        className="sm:w-56"
        label={label}
        value={code}
        onChange={setCode}
        error={error}
        required
        autoFocus
        {...(password
          ? { type: 'password', autoComplete: 'current-password', maxLength: 1000 }
          : { autoComplete: 'one-time-code', inputMode: 'numeric' as const, maxLength: 20 })}
      />
      <div className="flex gap-2">
        <button type="submit" disabled={busy} className={buttonClass()}>
          {busy ? busyText : submit}
        </button>
        <button type="button" className={buttonClass('secondary')} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Profile → Sign-in security (docs/PRODUCT.md#second-factors): the authenticator app and its recovery codes. */
export function SignInSecurity() {
  const status = useSecondFactors();
  const refresh = useRefreshFactors();
  const [mode, setMode] = useState<Mode>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);

  const fail = (failure: unknown) => setError(errorText(failure) ?? 'Something went wrong. Please try again.');
  const reset = () => {
    setMode({ kind: 'idle' });
    setError(null);
  };

  async function begin() {
    setError(null);
    try {
      setMode({ kind: 'enrolling', enrolment: await startTotp() });
    } catch (failure) {
      fail(failure);
    }
  }

  return (
    <section aria-labelledby="sign-in-security" className="mx-auto max-w-3xl px-4 pb-8 sm:px-6">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="sign-in-security" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <ShieldCheck aria-hidden="true" className="size-5 text-brand-600" />
          Sign-in security
        </h2>
        {status.isPending ? (
          <Spinner />
        ) : status.isError ? (
          <Alert variant="box" className="mt-3">
            Could not load your sign-in security settings.
          </Alert>
        ) : (
          <>
            {status.data.required && !status.data.totp && (
              <p className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
                Your admin requires a second factor. Set up an authenticator app.
              </p>
            )}
            <div className="mt-4 flex flex-col gap-3 border-t border-slate-100 pt-4 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <h3 className="font-medium text-slate-900">Authenticator app</h3>
                <p className="text-sm text-slate-600">
                  {status.data.totp
                    ? `On. ${status.data.recoveryCodesLeft} of 10 recovery codes left.`
                    : 'Off. After your password, sign-in asks for a 6-digit code from an app on your phone.'}
                </p>
              </div>
              {mode.kind === 'idle' &&
                (status.data.totp ? (
                  <div className="flex flex-wrap gap-2">
                    <button
                      type="button"
                      className={buttonClass('secondary')}
                      onClick={() => setMode({ kind: 'confirm', action: 'regenerate' })}
                    >
                      New recovery codes
                    </button>
                    <button
                      type="button"
                      className={buttonClass('secondary')}
                      onClick={() => setMode({ kind: 'confirm', action: 'off' })}
                    >
                      Turn off
                    </button>
                  </div>
                ) : (
                  <button type="button" className={buttonClass()} onClick={() => void begin()}>
                    Set up authenticator app
                  </button>
                ))}
            </div>
            {mode.kind === 'idle' && error && (
              <Alert variant="box" className="mt-3">
                {error}
              </Alert>
            )}
            {mode.kind === 'enrolling' && (
              <div className="mt-4 flex flex-col gap-4 sm:flex-row">
                <img
                  src={mode.enrolment.qrCode}
                  alt="QR code for your authenticator app"
                  width={176}
                  height={176}
                  className="self-center rounded ring-1 ring-slate-200 sm:self-start"
                />
                <div className="min-w-0 flex-1">
                  <p className="text-sm text-slate-700">
                    Scan the QR code with your authenticator app, or enter this key by hand:
                  </p>
                  <p className="mt-1 break-all font-mono text-sm text-slate-900" data-testid="totp-secret">
                    {mode.enrolment.secret}
                  </p>
                  <CodeForm
                    label="Code from the app"
                    submit="Turn on"
                    busyText="Checking…"
                    error={error}
                    onCancel={reset}
                    onSubmit={async (code) => {
                      try {
                        const { recoveryCodes } = await confirmTotp(code);
                        setError(null);
                        setMode({ kind: 'codes', codes: recoveryCodes });
                        await refresh();
                      } catch (failure) {
                        fail(failure);
                      }
                    }}
                  />
                </div>
              </div>
            )}
            {mode.kind === 'confirm' && (
              <CodeForm
                label={
                  mode.action === 'regenerate'
                    ? 'Code for new recovery codes'
                    : status.data.turnOffWith === 'password'
                      ? 'Your password'
                      : 'Code to turn the app off'
                }
                password={mode.action === 'off' && status.data.turnOffWith === 'password'}
                submit={mode.action === 'off' ? 'Turn off' : 'Make new codes'}
                busyText="Checking…"
                error={error}
                onCancel={reset}
                onSubmit={async (value) => {
                  try {
                    if (mode.action === 'off') {
                      await removeTotp(status.data.turnOffWith === 'password' ? { password: value } : { code: value });
                      reset();
                    } else {
                      const { recoveryCodes } = await regenerateRecoveryCodes(value);
                      setError(null);
                      setMode({ kind: 'codes', codes: recoveryCodes });
                    }
                    await refresh();
                  } catch (failure) {
                    fail(failure);
                  }
                }}
              />
            )}
            {mode.kind === 'codes' && <RecoveryCodes codes={mode.codes} onDone={reset} />}
          </>
        )}
        {!status.isPending && !status.isError && <Passkeys />}
      </div>
    </section>
  );
}

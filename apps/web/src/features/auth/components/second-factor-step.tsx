import type { MeResponse, TotpEnrolment } from '@atrium/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Fingerprint, KeyRound } from 'lucide-react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { isApiError } from '../../../lib/api-error';
import { finishSignInEnrolment, finishSignInWithNewPasskey, finishWithCode, startSignInEnrolment } from '../api/login';

export const CODE_HELP = 'Open your authenticator app and enter the 6-digit code for Atrium.';
export const RECOVERY_HELP = 'Enter one of the recovery codes you saved when you set up the app. Each works once.';

const inputClass =
  'mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-slate-900 focus:border-brand-600 aria-[invalid=true]:border-red-500';

/** The message a refused code shows: the server's (wrong code, too many tries, sign-in expired) or a generic one. */
const refusal = (error: unknown) =>
  isApiError(error) && ['INVALID_CODE', 'RATE_LIMITED', 'SIGN_IN_EXPIRED', 'VALIDATION_FAILED'].includes(error.code)
    ? error.message
    : 'Could not check the code. Please try again.';

export interface SecondFactorStepProps {
  /** `code`: the person has an app; `enrol`: the admin policy requires one they have not set up yet. */
  kind: 'code' | 'enrol';
  onSignedIn(me: MeResponse): void;
  /** Back to the password (an expired sign-in, or "Start over"). */
  onRestart(): void;
}

/** After a right password: the code from the authenticator app (or a recovery code), or setting one up. */
export function SecondFactorStep({ kind, onSignedIn, onRestart }: SecondFactorStepProps) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [saved, setSaved] = useState<{ me: MeResponse; codes: string[] } | null>(null);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (kind !== 'enrol') return;
    startSignInEnrolment().then(setEnrolment, (failure: unknown) => setError(refusal(failure)));
  }, [kind]);
  useEffect(() => input.current?.focus(), [recovery, enrolment]);

  /** The other way to meet the policy: a passkey of this device, which from now on signs in by itself. */
  async function addPasskey() {
    setError(null);
    setBusy(true);
    try {
      onSignedIn(await finishSignInWithNewPasskey());
    } catch (failure) {
      if (failure instanceof Error && (failure.name === 'NotAllowedError' || failure.name === 'AbortError'))
        setError('The passkey prompt was closed before it finished.');
      else if (
        isApiError(failure) &&
        ['BAD_REQUEST', 'CONFLICT', 'SIGN_IN_EXPIRED', 'RATE_LIMITED'].includes(failure.code)
      )
        setError(failure.message);
      else setError('Could not add the passkey. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      if (kind === 'enrol') {
        const { recoveryCodes, ...me } = await finishSignInEnrolment(code);
        setSaved({ me, codes: recoveryCodes });
      } else onSignedIn(await finishWithCode(code));
    } catch (failure) {
      setError(refusal(failure));
      setCode('');
    } finally {
      setBusy(false);
    }
  }

  if (saved)
    return (
      <div className="mt-5 space-y-4">
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          Save these recovery codes now. Each works once; they are not shown again.
        </p>
        <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-sm text-slate-900">
          {saved.codes.map((c) => (
            <li key={c} className="rounded bg-slate-100 px-2 py-1 text-center">
              {c}
            </li>
          ))}
        </ul>
        <button type="button" className={`${buttonClass()} min-h-11 w-full`} onClick={() => onSignedIn(saved.me)}>
          I saved them, continue
        </button>
      </div>
    );

  const label = recovery ? 'Recovery code' : 'Authentication code';
  return (
    <form className="mt-5 space-y-4" onSubmit={(event) => void onSubmit(event)}>
      <h2 className="text-lg font-semibold text-slate-900">
        {kind === 'enrol' ? 'Set up two-step verification' : 'Two-step verification'}
      </h2>
      {kind === 'enrol' ? (
        <>
          <p className="text-sm text-slate-600">
            Your admin requires a second factor. Scan this QR code with an authenticator app, or type the key in by
            hand, then enter the code it shows.
          </p>
          {enrolment && (
            <div className="flex flex-col items-center gap-2">
              <img src={enrolment.qrCode} alt="QR code for your authenticator app" width={176} height={176} />
              <p className="text-xs text-slate-600">
                Key: <code className="break-all font-mono text-sm text-slate-900">{enrolment.secret}</code>
              </p>
            </div>
          )}
        </>
      ) : (
        <p className="text-sm text-slate-600">{recovery ? RECOVERY_HELP : CODE_HELP}</p>
      )}
      {error && <Alert variant="box">{error}</Alert>}
      <div>
        <label htmlFor="second-factor-code" className="block text-sm font-medium text-slate-700">
          {label}
        </label>
        <input
          ref={input}
          id="second-factor-code"
          name="code"
          required
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete={recovery ? 'off' : 'one-time-code'}
          inputMode={recovery ? 'text' : 'numeric'}
          pattern={recovery ? undefined : '[0-9 ]{6,7}'}
          maxLength={recovery ? 20 : 7}
          aria-invalid={error ? true : undefined}
          className={`${inputClass} ${recovery ? 'font-mono' : 'text-center font-mono text-lg tracking-[0.4em]'}`}
        />
      </div>
      <button type="submit" disabled={busy} className={`${buttonClass()} min-h-11 w-full`}>
        <KeyRound aria-hidden="true" className="size-4" />
        {busy ? 'Checking…' : 'Verify'}
      </button>
      {kind === 'enrol' && (
        <>
          <p className="text-sm text-slate-600">Or use a passkey on this device instead of an app.</p>
          <button
            type="button"
            disabled={busy}
            onClick={() => void addPasskey()}
            className={`${buttonClass('secondary')} min-h-11 w-full`}
          >
            <Fingerprint aria-hidden="true" className="size-4 text-brand-600" />
            Add a passkey instead
          </button>
        </>
      )}
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        {kind === 'code' && (
          <button
            type="button"
            className="min-h-11 font-medium text-brand-700 underline-offset-2 hover:underline"
            onClick={() => {
              setRecovery(!recovery);
              setCode('');
              setError(null);
            }}
          >
            {recovery ? 'Use the authenticator app' : 'Use a recovery code'}
          </button>
        )}
        <button
          type="button"
          className="min-h-11 text-slate-600 underline-offset-2 hover:underline"
          onClick={onRestart}
        >
          Start over
        </button>
      </div>
    </form>
  );
}

import { APP_PASSWORD_TEXTS, type AppPasswordRecord, type CreatedAppPassword } from '@atrium/contracts';
import { KeyRound } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { useMe } from '../../../lib/me';
import { showToast } from '../../../lib/toast';
import { useAppPasswords, useCreateAppPassword, useRevokeAppPassword } from '../api/app-passwords-api';

const errorText = (error: unknown) => (isApiError(error) ? error.message : 'Something went wrong. Please try again.');
const when = (iso: string | null, none = 'never') => (iso ? new Date(iso).toLocaleString() : none);

/** The WebDAV address of a person (docs/PRODUCT.md#webdav). */
const davUrl = (ownerKey: string, origin = window.location.origin) =>
  `${origin}/remote.php/dav/files/${encodeURIComponent(ownerKey)}/`;

function Secret({ label, value, what }: { label: string; value: string; what: string }) {
  const field = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <div className="mt-3">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="mt-1 flex flex-wrap gap-2">
        <input
          id={id}
          ref={field}
          readOnly
          value={value}
          onFocus={(event) => event.target.select()}
          className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
        />
        <CopyButton text={value} field={field} what={what} statusClassName="w-full text-sm text-red-700" />
      </div>
    </div>
  );
}

/**
 * Profile → App passwords (docs/PRODUCT.md#app-passwords): name one, see it once with the WebDAV address, list them
 * with their last use, revoke.
 */
export function AppPasswordsSection() {
  const me = useMe();
  const passwords = useAppPasswords();
  const create = useCreateAppPassword();
  const revoke = useRevokeAppPassword();
  const ids = { name: useId(), error: useId(), heading: useId() };
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedAppPassword | null>(null);
  const [revoking, setRevoking] = useState<AppPasswordRecord | null>(null);
  const ownerKey = me.data?.ownerKey ?? '';
  const live = (passwords.data ?? []).filter((p) => !p.revokedAt);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name.trim(), {
      onSuccess: (made) => {
        setName('');
        setCreated(made);
      },
    });
  };
  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: (record) => showToast('success', `App password “${record.name}” revoked`),
      onError: (error) => showToast('error', errorText(error)),
      onSettled: () => setRevoking(null),
    });
  };
  const createError = create.isError ? errorText(create.error) : null;

  return (
    <section className="mx-auto max-w-3xl px-4 pb-28 sm:px-6 sm:pb-12" aria-labelledby={ids.heading}>
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id={ids.heading} className="text-lg font-semibold text-slate-900">
          App passwords
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          For file managers, rclone and sync apps (WebDAV). Sign in with your owner key “{ownerKey}” and an app
          password; revoke one when a device is gone.
        </p>
        <form
          onSubmit={submit}
          className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end"
          aria-label="New app password"
        >
          <div className="flex flex-1 flex-col gap-1">
            <label htmlFor={ids.name} className="text-sm font-medium text-slate-700">
              Name
            </label>
            <input
              id={ids.name}
              value={name}
              required
              maxLength={100}
              onChange={(event) => setName(event.target.value)}
              placeholder="e.g. Laptop"
              aria-describedby={createError ? ids.error : undefined}
              className="min-h-11 rounded-md border border-slate-300 px-3 py-2 sm:min-h-0"
            />
          </div>
          <button type="submit" className={`${buttonClass('primary')} min-h-11 sm:min-h-0`} disabled={create.isPending}>
            <KeyRound className="size-4" aria-hidden="true" />
            {create.isPending ? 'Creating…' : 'Create app password'}
          </button>
        </form>
        {createError && (
          <Alert id={ids.error} className="mt-2">
            {createError}
          </Alert>
        )}
        {passwords.isPending ? (
          <Spinner />
        ) : passwords.isError ? (
          <Alert className="mt-4">{errorText(passwords.error)}</Alert>
        ) : live.length === 0 ? (
          <p className="mt-4 text-sm text-slate-600">{APP_PASSWORD_TEXTS.empty}</p>
        ) : (
          <ul className="mt-4 divide-y divide-slate-100 border-t border-slate-100" aria-label="App passwords">
            {live.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                <div className="min-w-0">
                  <div className="break-words font-medium text-slate-900">{p.name}</div>
                  <div className="text-slate-600">
                    Created {when(p.createdAt)} · Last used {when(p.lastUsedAt)}
                    {p.lastUsedIp ? ` from ${p.lastUsedIp}` : ''}
                  </div>
                </div>
                <button
                  type="button"
                  className="min-h-11 rounded-md px-2.5 py-1.5 text-sm font-medium text-red-700 ring-1 ring-red-200 hover:bg-red-50 sm:min-h-0"
                  onClick={() => setRevoking(p)}
                  aria-label={`Revoke ${p.name}`}
                >
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <Dialog
        open={created !== null}
        title={`App password “${created?.name ?? ''}” created`}
        description={APP_PASSWORD_TEXTS.shownOnce}
        onClose={() => setCreated(null)}
        footer={
          <button type="button" className={buttonClass('primary')} onClick={() => setCreated(null)}>
            Done
          </button>
        }
      >
        <Secret label="App password" value={created?.password ?? ''} what="Password" />
        <Secret label="WebDAV address" value={davUrl(ownerKey)} what="Address" />
        <p className="mt-3 text-sm text-slate-600">User name: {ownerKey}</p>
      </Dialog>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        message={APP_PASSWORD_TEXTS.revokeConfirm}
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(null)}
      />
    </section>
  );
}

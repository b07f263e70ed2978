import type { Passkey } from '@atrium/contracts';
import { Fingerprint, Pencil, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { errorText } from '../../../lib/api-error';
import { addPasskey, removePasskey, renamePasskey, usePasskeys, useRefreshPasskeys } from '../api/factors';

const dateText = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** Why the browser's passkey prompt failed, in words (it was cancelled, or the device has none). */
function ceremonyError(error: unknown): string {
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'))
    return 'The passkey prompt was closed before it finished.';
  if (error instanceof Error && error.name === 'InvalidStateError') return 'This device already has a passkey here.';
  return errorText(error) ?? 'Could not add the passkey. Please try again.';
}

function RenameForm({ passkey, onDone }: { passkey: Passkey; onDone(): void }) {
  const refresh = useRefreshPasskeys();
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);
  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    try {
      await renamePasskey(passkey.id, name);
      await refresh();
      onDone();
    } catch (failure) {
      setError(errorText(failure) ?? 'Could not rename the passkey.');
    }
  }
  return (
    <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={(event) => void save(event)}>
      <TextField
        label="Passkey name"
        value={name}
        onChange={setName}
        error={error}
        required
        maxLength={100}
        autoFocus
      />
      <div className="flex gap-2">
        <button type="submit" className={buttonClass()}>
          Save
        </button>
        <button type="button" className={buttonClass('secondary')} onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Profile → Sign-in security → Passkeys: add (the browser asks), rename, remove. */
export function Passkeys() {
  const passkeys = usePasskeys();
  const refresh = useRefreshPasskeys();
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);

  async function add() {
    setError(null);
    setAdding(true);
    try {
      const added = await addPasskey();
      await refresh();
      setRenaming(added.id);
    } catch (failure) {
      setError(ceremonyError(failure));
    } finally {
      setAdding(false);
    }
  }

  async function remove(passkey: Passkey) {
    try {
      await removePasskey(passkey.id);
      await refresh();
    } catch (failure) {
      setError(errorText(failure) ?? 'Could not remove the passkey.');
    } finally {
      setRemoving(null);
    }
  }

  return (
    <div className="mt-4 border-t border-slate-100 pt-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h3 className="font-medium text-slate-900">Passkeys</h3>
          <p className="text-sm text-slate-600">
            Sign in with your fingerprint, face or device PIN instead of a password. No code is asked after a passkey.
          </p>
        </div>
        <button type="button" className={buttonClass()} disabled={adding} onClick={() => void add()}>
          <Fingerprint aria-hidden="true" className="size-4" />
          {adding ? 'Waiting for your device…' : 'Add a passkey'}
        </button>
      </div>
      {error && (
        <Alert variant="box" className="mt-3">
          {error}
        </Alert>
      )}
      {passkeys.isPending ? (
        <Spinner />
      ) : passkeys.isError ? (
        <Alert className="mt-3">Could not load your passkeys.</Alert>
      ) : passkeys.data.passkeys.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No passkeys yet.</p>
      ) : (
        <ul aria-label="Passkeys" className="mt-3 divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
          {passkeys.data.passkeys.map((passkey) => (
            <li key={passkey.id} className="p-3">
              {renaming === passkey.id ? (
                <RenameForm passkey={passkey} onDone={() => setRenaming(null)} />
              ) : (
                <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <p className="truncate font-medium text-slate-900">{passkey.name}</p>
                    <p className="text-xs text-slate-600">
                      Added {dateText(passkey.createdAt)} ·{' '}
                      {passkey.lastUsedAt ? `last used ${dateText(passkey.lastUsedAt)}` : 'not used yet'}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <button
                      type="button"
                      className={buttonClass('secondary')}
                      aria-label={`Rename ${passkey.name}`}
                      onClick={() => setRenaming(passkey.id)}
                    >
                      <Pencil aria-hidden="true" className="size-4" />
                      Rename
                    </button>
                    <button
                      type="button"
                      className={buttonClass('secondary')}
                      aria-label={`Remove ${passkey.name}`}
                      onClick={() => setRemoving(passkey)}
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                      Remove
                    </button>
                  </div>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove this passkey?"
        message={`“${removing?.name ?? ''}” will no longer sign you in.`}
        confirmLabel="Remove passkey"
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      />
    </div>
  );
}

import { API_KEY_TEXTS, type ApiKeyRecord, type CreatedApiKey } from '@atrium/contracts';
import { KeyRound } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/admin-api';

const errorText = (error: unknown) => (isApiError(error) ? error.message : 'Something went wrong. Please try again.');
const when = (iso: string | null, none = 'never') => (iso ? new Date(iso).toLocaleString() : none);

/** A key's state at `now`: revoked, expired or active. */
export function keyState(key: ApiKeyRecord, now = Date.now()): 'Revoked' | 'Expired' | 'Active' {
  if (key.revokedAt) return 'Revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) return 'Expired';
  return 'Active';
}

/** The end of the chosen local day (yyyy-mm-dd) as ISO-8601: a key "expiring on" a day works all that day. */
const endOfDay = (day: string) => new Date(`${day}T23:59:59.999`).toISOString();

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const create = useCreateApiKey();
  const ids = { name: useId(), expiry: useId(), error: useId() };
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), expiresAt: expiry ? endOfDay(expiry) : null },
      {
        onSuccess: (key) => {
          setName('');
          setExpiry('');
          onCreated(key);
        },
      },
    );
  };
  const error = create.isError ? errorText(create.error) : null;
  return (
    <form
      onSubmit={submit}
      className="mt-6 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      aria-label="New API key"
    >
      <h2 className="text-lg font-semibold text-slate-900">New key</h2>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
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
            placeholder="e.g. Meeting-room kiosk"
            aria-describedby={error ? ids.error : undefined}
            className="min-h-11 rounded-md border border-slate-300 px-3 py-2 sm:min-h-0"
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.expiry} className="text-sm font-medium text-slate-700">
            Expires on (optional)
          </label>
          <input
            id={ids.expiry}
            type="date"
            value={expiry}
            onChange={(event) => setExpiry(event.target.value)}
            className="min-h-11 rounded-md border border-slate-300 px-3 py-2 sm:min-h-0"
          />
        </div>
        <button type="submit" className={`${buttonClass('primary')} min-h-11 sm:min-h-0`} disabled={create.isPending}>
          <KeyRound className="size-4" aria-hidden="true" />
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </div>
      {error && (
        <Alert id={ids.error} className="mt-2">
          {error}
        </Alert>
      )}
    </form>
  );
}

/** The new key, shown once: copy it now. */
function NewKeyDialog({ created, onClose }: { created: CreatedApiKey | null; onClose: () => void }) {
  const field = useRef<HTMLInputElement>(null);
  const fieldId = useId();
  return (
    <Dialog
      open={created !== null}
      title={`Key “${created?.name ?? ''}” created`}
      description={API_KEY_TEXTS.shownOnce}
      onClose={onClose}
      footer={
        <button type="button" className={buttonClass('primary')} onClick={onClose}>
          Done
        </button>
      }
    >
      <label htmlFor={fieldId} className="text-sm font-medium text-slate-700">
        API key
      </label>
      <div className="mt-1 flex flex-wrap gap-2">
        <input
          id={fieldId}
          ref={field}
          readOnly
          value={created?.key ?? ''}
          onFocus={(event) => event.target.select()}
          className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
        />
        <CopyButton
          text={created?.key ?? ''}
          field={field}
          what="Key"
          autoFocus
          statusClassName="w-full text-sm text-red-700"
        />
      </div>
      {created?.expiresAt && (
        <p className="mt-3 text-sm text-slate-600">It stops working on {when(created.expiresAt)}.</p>
      )}
    </Dialog>
  );
}

function RevokeButton({ apiKey, onRevoke }: { apiKey: ApiKeyRecord; onRevoke: (key: ApiKeyRecord) => void }) {
  if (keyState(apiKey) === 'Revoked') return null;
  return (
    <button
      type="button"
      className="min-h-11 rounded-md px-2.5 py-1.5 text-sm font-medium text-red-700 ring-1 ring-red-200 hover:bg-red-50 sm:min-h-0"
      onClick={() => onRevoke(apiKey)}
      aria-label={`Revoke ${apiKey.name}`}
    >
      Revoke
    </button>
  );
}

const stateClass = (state: ReturnType<typeof keyState>) =>
  state === 'Active' ? 'text-green-800' : state === 'Expired' ? 'text-amber-800' : 'text-slate-500';

/** /dashboard/admin/api-keys: keys for the AI compatibility endpoints — create (shown once), list, revoke. */
export default function AdminApiKeysPage() {
  useDocumentTitle('API keys');
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRecord | null>(null);
  const all = keys.data ?? [];

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: (key) => showToast('success', `Key “${key.name}” revoked`),
      onError: (error) => showToast('error', errorText(error)),
      onSettled: () => setRevoking(null),
    });
  };

  return (
    <section className="mx-auto max-w-6xl px-4 pb-28 pt-8 sm:pb-12 sm:pt-12">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">API keys</h1>
      <p className="mt-2 text-slate-600">
        Keys let programs use the Azure- and OpenAI-compatible AI endpoints. A key is shown once, when it is created;
        only its first characters are kept for you to recognise it.
      </p>
      <CreateKeyForm onCreated={setCreated} />

      {keys.isPending ? (
        <Spinner />
      ) : keys.isError ? (
        <Alert size="base" className="mt-6">
          {errorText(keys.error)}
        </Alert>
      ) : all.length === 0 ? (
        <p className="mt-6 text-slate-600">{API_KEY_TEXTS.empty}</p>
      ) : (
        <>
          <table className="mt-6 hidden w-full text-left text-sm sm:table" aria-label="API keys">
            <thead className="text-slate-600">
              <tr>
                <th className="py-2 pr-3">Name</th>
                <th className="py-2 pr-3">Prefix</th>
                <th className="py-2 pr-3">Created by</th>
                <th className="py-2 pr-3">Created</th>
                <th className="py-2 pr-3">Last used</th>
                <th className="py-2 pr-3">Expires</th>
                <th className="py-2 pr-3">Status</th>
                <th className="py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {all.map((key) => (
                <tr key={key.id} className="border-t border-slate-200 align-top">
                  <td className="py-2 pr-3 font-medium text-slate-900">{key.name}</td>
                  <td className="py-2 pr-3 font-mono">{key.prefix}…</td>
                  <td className="py-2 pr-3">{key.createdByName ?? '—'}</td>
                  <td className="py-2 pr-3">{when(key.createdAt)}</td>
                  <td className="py-2 pr-3">{when(key.lastUsedAt)}</td>
                  <td className="py-2 pr-3">{when(key.expiresAt)}</td>
                  <td className={`py-2 pr-3 font-medium ${stateClass(keyState(key))}`}>{keyState(key)}</td>
                  <td className="py-2">
                    <RevokeButton apiKey={key} onRevoke={setRevoking} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul className="mt-6 space-y-3 sm:hidden" aria-label="API keys">
            {all.map((key) => (
              <li key={key.id} className="rounded-md bg-white p-4 shadow-sm ring-1 ring-slate-200">
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <div className="break-words font-medium text-slate-900">{key.name}</div>
                    <div className="font-mono text-sm text-slate-600">{key.prefix}…</div>
                  </div>
                  <span className={`text-sm font-medium ${stateClass(keyState(key))}`}>{keyState(key)}</span>
                </div>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 text-sm text-slate-600">
                  <dt>Created</dt>
                  <dd>
                    {when(key.createdAt)}
                    {key.createdByName ? ` by ${key.createdByName}` : ''}
                  </dd>
                  <dt>Last used</dt>
                  <dd>{when(key.lastUsedAt)}</dd>
                  <dt>Expires</dt>
                  <dd>{when(key.expiresAt)}</dd>
                </dl>
                <div className="mt-3">
                  <RevokeButton apiKey={key} onRevoke={setRevoking} />
                </div>
              </li>
            ))}
          </ul>
        </>
      )}

      <NewKeyDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        message={API_KEY_TEXTS.revokeConfirm}
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onConfirm={confirmRevoke}
        onCancel={() => setRevoking(null)}
      />
    </section>
  );
}

import type { AdminUser } from '@atrium/contracts';
import { formatBytes } from '@atrium/contracts/format-bytes';
import { Search } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog } from '../../../components/ui/dialog';
import { LoadMore } from '../../../components/ui/load-more';
import { Spinner } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/api-client';
import { useMe } from '../../../lib/me';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAdminUsers, useRevokeSessions, useTransferFiles, useUpdateAdminUser } from '../api/admin-api';

const MB = 1024 * 1024;
const errorText = (error: unknown) => (isApiError(error) ? error.message : 'Something went wrong. Please try again.');
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');
/** A user as the confirmation names them: their name and user id, or the user id alone. */
/** How a toast names a person: their display name, else their user id (docs/PRODUCT.md#admin-console-users-and-audit-log). */
const displayNameOf = (user: Pick<AdminUser, 'name' | 'userId'>) => user.name ?? user.userId;

const named = (user: Pick<AdminUser, 'name' | 'userId'>) =>
  user.name && user.name !== user.userId ? `${user.name} (${user.userId})` : user.userId;

/**
 * Transfer files (docs/PRODUCT.md#admin-console-users-and-audit-log), for a disabled user: the recipient's user id,
 * then a confirmation naming both people. The server moves everything and records it in the audit log.
 */
function TransferFiles({ user, others }: { user: AdminUser; others: AdminUser[] }) {
  const transfer = useTransferFiles();
  const [open, setOpen] = useState(false);
  const [recipient, setRecipient] = useState('');
  const [confirming, setConfirming] = useState(false);
  const fieldId = useId();
  const toUserId = recipient.trim();
  const to = others.find((other) => other.userId === toUserId) ?? { name: null, userId: toUserId };
  const close = () => {
    setOpen(false);
    setConfirming(false);
    setRecipient('');
  };
  const ask = (event: FormEvent) => {
    event.preventDefault();
    if (!toUserId) {
      showToast('warning', 'Enter the user id of the person who receives the files.');
      return;
    }
    setConfirming(true);
  };
  const run = () =>
    transfer.mutate(
      { userId: user.userId, toUserId },
      {
        onSuccess: (result) => {
          close();
          showToast(
            'success',
            `Moved ${result.files} file(s) and ${result.folders} folder(s) of ${displayNameOf(user)} to ${result.to}, in "${result.folderName}"`,
          );
        },
        onError: (error) => {
          setConfirming(false);
          showToast('error', errorText(error));
        },
      },
    );
  return (
    <>
      <button
        type="button"
        className="rounded-md px-2.5 py-1.5 text-sm font-medium ring-1 ring-slate-300 hover:bg-slate-50 disabled:opacity-50 min-h-11 sm:min-h-0"
        onClick={() => setOpen(true)}
      >
        Transfer files…
      </button>
      <Dialog
        open={open && !confirming}
        title={`Transfer the files of ${named(user)}`}
        description="Everything in their personal space moves to another person, into a new folder named after them."
        onClose={close}
        footer={
          <>
            <button type="button" className={buttonClass('secondary')} onClick={close}>
              Cancel
            </button>
            <button type="submit" form={`${fieldId}-form`} className={buttonClass()}>
              Continue
            </button>
          </>
        }
      >
        <form id={`${fieldId}-form`} onSubmit={ask}>
          <label htmlFor={fieldId} className="text-sm font-medium text-slate-700">
            User id of the recipient
          </label>
          <input
            id={fieldId}
            data-autofocus
            value={recipient}
            onChange={(event) => setRecipient(event.target.value)}
            className="mt-1 min-h-11 w-full rounded-md border border-slate-300 px-3 py-2 sm:min-h-0"
          />
        </form>
      </Dialog>
      <ConfirmDialog
        open={open && confirming}
        title="Transfer files?"
        message={`All files and folders of ${named(user)}, trashed ones included, move to ${named(to)}, who becomes their owner and may exceed their quota. This is recorded in the audit log.`}
        confirmLabel="Transfer files"
        busy={transfer.isPending}
        onConfirm={run}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}

/** The actions on one user: role, status, quota, sign out everywhere, and for a disabled user Transfer files. */
function UserActions({
  user,
  self,
  others,
  extra,
}: {
  user: AdminUser;
  self: boolean;
  others: AdminUser[];
  extra: ReactNode;
}) {
  const update = useUpdateAdminUser();
  const revoke = useRevokeSessions();
  const [quota, setQuota] = useState(user.quotaBytes === null ? '' : String(Math.round(user.quotaBytes / MB)));
  const quotaId = useId();
  const locked = user.builtIn || self;
  const change = (patch: Parameters<typeof update.mutate>[0]['patch'], done: string) =>
    update.mutate(
      { userId: user.userId, patch },
      { onSuccess: () => showToast('success', done), onError: (error) => showToast('error', errorText(error)) },
    );
  const saveQuota = (event: FormEvent) => {
    event.preventDefault();
    const text = quota.trim();
    const megabytes = Number(text);
    if (text && (!Number.isFinite(megabytes) || megabytes < 0)) {
      showToast('warning', 'Enter the quota in MB, or leave it empty for the default.');
      return;
    }
    change({ quotaBytes: text ? Math.round(megabytes * MB) : null }, `Quota of ${displayNameOf(user)} saved`);
  };
  const button = ROW_ACTION_CLASS;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        className={button}
        disabled={update.isPending || (locked && user.role === 'admin')}
        onClick={() =>
          change(
            { role: user.role === 'admin' ? 'user' : 'admin' },
            user.role === 'admin'
              ? `${displayNameOf(user)} is no longer an admin`
              : `${displayNameOf(user)} is now an admin`,
          )
        }
      >
        {user.role === 'admin' ? 'Remove admin' : 'Make admin'}
      </button>
      <button
        type="button"
        className={button}
        disabled={update.isPending || (locked && !user.disabled)}
        onClick={() =>
          change(
            { disabled: !user.disabled },
            user.disabled ? `${displayNameOf(user)} is enabled` : `${displayNameOf(user)} is disabled and signed out`,
          )
        }
      >
        {user.disabled ? 'Enable' : 'Disable'}
      </button>
      <button
        type="button"
        className={button}
        disabled={revoke.isPending}
        onClick={() =>
          revoke.mutate(user.userId, {
            onSuccess: (result) =>
              showToast('success', `Signed ${displayNameOf(user)} out of ${result.revoked} session(s)`),
            onError: (error) => showToast('error', errorText(error)),
          })
        }
      >
        Sign out everywhere
      </button>
      <form onSubmit={saveQuota} className="flex items-center gap-1">
        <label htmlFor={quotaId} className="text-sm text-slate-600">
          Quota (MB)
        </label>
        <input
          id={quotaId}
          inputMode="decimal"
          value={quota}
          placeholder="default"
          onChange={(event) => setQuota(event.target.value)}
          className="w-24 rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
        <button type="submit" className={button} disabled={update.isPending}>
          Save
        </button>
      </form>
      {extra}
      {user.disabled && <TransferFiles user={user} others={others} />}
    </div>
  );
}

const usage = (user: AdminUser) =>
  `${formatBytes(user.usedBytes)} of ${formatBytes(user.effectiveQuotaBytes)}${user.quotaBytes === null ? ' (default)' : ''}`;

/** The class of a row's action buttons, for actions other features add through `rowActions`. */
export const ROW_ACTION_CLASS =
  'rounded-md px-2.5 py-1.5 text-sm font-medium ring-1 ring-slate-300 hover:bg-slate-50 disabled:opacity-50 min-h-11 sm:min-h-0';

export interface AdminUsersPageProps {
  /** More actions for a row (the app layer adds the accounts feature's "Reset link" for local accounts). */
  rowActions?: (user: AdminUser) => ReactNode;
}

/** /dashboard/admin/users: everyone who has signed in, with their role, status, storage and sessions. */
export default function AdminUsersPage({ rowActions }: AdminUsersPageProps = {}) {
  useDocumentTitle('Users');
  const me = useMe();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const users = useAdminUsers(search);
  const searchId = useId();
  const all = users.data?.pages.flatMap((page) => page.users) ?? [];
  const selfKey = me.data?.ownerKey;

  return (
    <section className="mx-auto max-w-6xl px-4 py-8 sm:py-12">
      <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Users</h1>
      <p className="mt-2 text-slate-600">Everyone who has signed in. Disabling a user signs them out at once.</p>
      <form
        role="search"
        className="mt-6 flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setSearch(text.trim());
        }}
      >
        <label htmlFor={searchId} className="sr-only">
          Search users
        </label>
        <input
          id={searchId}
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Name, email or user id"
          className="min-h-11 w-full max-w-sm rounded-md border border-slate-300 px-3 py-2 sm:min-h-0"
        />
        <button type="submit" className={`${buttonClass()} min-h-11 sm:min-h-0`}>
          <Search className="size-4" aria-hidden="true" />
          Search
        </button>
      </form>

      {users.isPending ? (
        <Spinner />
      ) : users.isError ? (
        <Alert size="base" className="mt-6">
          {errorText(users.error)}
        </Alert>
      ) : all.length === 0 ? (
        <p className="mt-6 text-slate-600">No users match.</p>
      ) : (
        <>
          <table className="mt-6 hidden w-full text-left text-sm sm:table" aria-label="Users">
            <thead className="text-slate-600">
              <tr>
                <th className="py-2 pr-3">User</th>
                <th className="py-2 pr-3">Role</th>
                <th className="py-2 pr-3">Status</th>
                <th className="py-2 pr-3">Storage</th>
                <th className="py-2 pr-3">Last sign-in</th>
                <th className="py-2 pr-3">Sessions</th>
                <th className="py-2">Actions</th>
              </tr>
            </thead>
            <tbody>
              {all.map((user) => (
                <tr key={user.id} className="border-t border-slate-200 align-top">
                  <td className="py-2 pr-3">
                    <div className="font-medium text-slate-900">{user.name ?? user.userId}</div>
                    <div className="text-slate-600">{user.userId}</div>
                    {user.email && <div className="text-slate-500">{user.email}</div>}
                  </td>
                  <td className="py-2 pr-3">{user.role === 'admin' ? 'Admin' : 'User'}</td>
                  <td className="py-2 pr-3">{user.disabled ? 'Disabled' : 'Active'}</td>
                  <td className="py-2 pr-3">{usage(user)}</td>
                  <td className="py-2 pr-3">{when(user.lastSignInAt)}</td>
                  <td className="py-2 pr-3">{user.sessions}</td>
                  <td className="py-2">
                    <UserActions user={user} self={user.userId === selfKey} others={all} extra={rowActions?.(user)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <ul className="mt-6 space-y-3 sm:hidden" aria-label="Users">
            {all.map((user) => (
              <li key={user.id} className="rounded-md bg-white p-4 shadow-sm ring-1 ring-slate-200">
                <div className="font-medium text-slate-900">{user.name ?? user.userId}</div>
                <div className="text-sm text-slate-600">
                  {user.userId} · {user.role === 'admin' ? 'Admin' : 'User'} · {user.disabled ? 'Disabled' : 'Active'}
                </div>
                <div className="text-sm text-slate-600">{usage(user)}</div>
                <div className="text-sm text-slate-600">
                  Last sign-in {when(user.lastSignInAt)} · {user.sessions} session(s)
                </div>
                <div className="mt-3">
                  <UserActions user={user} self={user.userId === selfKey} others={all} extra={rowActions?.(user)} />
                </div>
              </li>
            ))}
          </ul>
          <LoadMore query={users} look="plain" />
        </>
      )}
    </section>
  );
}

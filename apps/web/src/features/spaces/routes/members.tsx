import { NOTIFICATION_MESSAGE_MAX, type DirectoryUser, type Member, type MemberRole } from '@atrium/contracts';
import { ArrowLeft } from 'lucide-react';
import { useDeferredValue, useId, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { errorText } from '../../../lib/api-error';
import { useMe } from '../../../lib/me';
import { useDocumentTitle } from '../../../lib/use-document-title';
import {
  useDeleteWorkspace,
  useDirectory,
  useMembers,
  useMessageMembers,
  useRemoveMember,
  useRenameWorkspace,
  useSetMember,
  useWorkspace,
} from '../api/spaces-api';
import { WorkspaceAnalysis } from '../components/workspace-analysis';
import { folderPath } from '../lib/browser-logic';

const ROLES: { value: MemberRole; label: string }[] = [
  { value: 'viewer', label: 'Viewer' },
  { value: 'editor', label: 'Editor' },
  { value: 'owner', label: 'Owner' },
];

const displayName = (user: DirectoryUser) => user.name ?? user.nickname ?? user.email ?? user.ownerKey;
const selectClass =
  'rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-brand-600';

type Confirm = { kind: 'remove' | 'owner'; member: Member } | { kind: 'leave' } | { kind: 'delete' } | null;

function Person({ user }: { user: DirectoryUser }) {
  const secondary = [user.nickname && user.nickname !== user.name ? `@${user.nickname}` : null, user.email]
    .filter(Boolean)
    .join(' · ');
  return (
    <div className="min-w-0 flex-1 basis-56">
      <p className="truncate font-medium text-slate-900">{displayName(user)}</p>
      {secondary && <p className="truncate text-xs text-slate-600">{secondary}</p>}
    </div>
  );
}

/** Add a member: search the directory by name, nickname or email, pick a role, add. */
function AddMember({ workspaceId, members }: { workspaceId: string; members: Member[] }) {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query.trim());
  const [role, setRole] = useState<MemberRole>('editor');
  const roleId = useId();
  const directory = useDirectory(deferred);
  const setMember = useSetMember(workspaceId);
  const memberKeys = new Set(members.map((member) => member.ownerKey));
  const results = (directory.data ?? []).filter((user) => !memberKeys.has(user.ownerKey));
  return (
    <section aria-labelledby={`${roleId}-title`} className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id={`${roleId}-title`} className="font-semibold text-slate-900">
        Add a member
      </h2>
      <div className="mt-3 flex flex-wrap items-start gap-3">
        <TextField
          className="min-w-0 flex-1 basis-56"
          label="Search people"
          hint="By name, nickname or email, among people who have signed in."
          type="search"
          value={query}
          onChange={setQuery}
          autoComplete="off"
        />
        <div>
          <label htmlFor={roleId} className="block text-sm font-medium text-slate-700">
            Role
          </label>
          <select
            id={roleId}
            value={role}
            onChange={(event) => setRole(event.target.value as MemberRole)}
            className={`mt-1 ${selectClass} py-2`}
          >
            {ROLES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {deferred !== '' && (
        <ul aria-label="People found" className="mt-3 divide-y divide-slate-100">
          {directory.isPending && <li className="py-2 text-sm text-slate-600">Searching…</li>}
          {directory.isSuccess && results.length === 0 && (
            <li className="py-2 text-sm text-slate-600">Nobody found who is not a member yet.</li>
          )}
          {results.map((user) => (
            <li key={user.ownerKey} className="flex items-center gap-3 py-2">
              <Person user={user} />
              <button
                type="button"
                disabled={setMember.isPending}
                onClick={() => {
                  const searched = query;
                  // Clears the search once added, unless the person has already typed another one.
                  setMember.mutate(
                    { userId: user.ownerKey, role },
                    { onSuccess: () => setQuery((current) => (current === searched ? '' : current)) },
                  );
                }}
                aria-label={`Add ${displayName(user)} as ${role}`}
                className={buttonClass('secondary')}
              >
                Add
              </button>
            </li>
          ))}
        </ul>
      )}
      {setMember.isError && <Alert className="mt-2">{errorText(setMember.error)}</Alert>}
    </section>
  );
}

/** Send every member a notification (owners): live in their feed, and by push where they subscribed. */
function MessageMembers({ workspaceId }: { workspaceId: string }) {
  const [message, setMessage] = useState('');
  const send = useMessageMembers(workspaceId);
  const fieldId = useId();
  const errorId = useId();
  const error = errorText(send.error);
  return (
    <section aria-labelledby={`${fieldId}-title`} className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id={`${fieldId}-title`} className="font-semibold text-slate-900">
        Message members
      </h2>
      <form
        className="mt-3 space-y-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          send.mutate(message, { onSuccess: () => setMessage('') });
        }}
      >
        <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800">
          Notification to everyone in this workspace
        </label>
        <textarea
          id={fieldId}
          value={message}
          onChange={(event) => {
            setMessage(event.target.value);
            send.reset();
          }}
          maxLength={NOTIFICATION_MESSAGE_MAX}
          rows={3}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
        />
        {error && <Alert id={errorId}>{error}</Alert>}
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" disabled={send.isPending || !message.trim()} className={buttonClass('secondary')}>
            {send.isPending ? 'Sending…' : 'Send to members'}
          </button>
          {send.isSuccess && (
            <p role="status" className="text-sm text-emerald-700">
              Sent to the members.
            </p>
          )}
        </div>
      </form>
    </section>
  );
}

/** Rename the workspace (owners). */
function RenameWorkspace({ workspaceId, name }: { workspaceId: string; name: string }) {
  const [value, setValue] = useState(name);
  const rename = useRenameWorkspace(workspaceId);
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        rename.mutate(value);
      }}
    >
      <TextField
        className="min-w-0 flex-1 basis-56"
        label="Workspace name"
        value={value}
        onChange={(next) => {
          setValue(next);
          rename.reset();
        }}
        error={errorText(rename.error)}
        autoComplete="off"
      />
      <button type="submit" disabled={rename.isPending || value === name} className={buttonClass('secondary')}>
        Rename
      </button>
      {rename.isSuccess && (
        <p role="status" className="w-full text-sm text-emerald-700">
          Renamed.
        </p>
      )}
    </form>
  );
}

/** `/dashboard/spaces/:workspaceId/members`: members with roles; owners add, change, remove, rename, delete. */
/** `invite`: what owners see below the members (the app lends the accounts feature's "Invite by email"). */
export default function MembersPage({ invite }: { invite?: (workspaceId: string) => ReactNode } = {}) {
  const { workspaceId = '' } = useParams();
  const me = useMe();
  const navigate = useNavigate();
  const workspace = useWorkspace(workspaceId);
  const members = useMembers(workspaceId);
  const setMember = useSetMember(workspaceId);
  const removeMember = useRemoveMember(workspaceId);
  const deleteWorkspace = useDeleteWorkspace(workspaceId);
  const [confirm, setConfirm] = useState<Confirm>(null);
  useDocumentTitle(workspace.data ? `Members · ${workspace.data.name}` : 'Members');

  if (workspace.isPending || members.isPending) return <Spinner label="Loading members…" />;
  if (workspace.isError || members.isError) {
    return (
      <section className="mx-auto max-w-3xl px-4 py-8">
        <div role="alert" className="rounded-xl border border-slate-200 bg-white p-6">
          <h1 className="text-lg font-semibold text-slate-900">Workspace not found</h1>
          <p className="mt-1 text-sm text-slate-600">
            {(workspace.error ?? members.error)?.message ?? 'It does not exist, or you are not a member of it.'}
          </p>
        </div>
      </section>
    );
  }

  const isOwner = workspace.data.role === 'owner';
  const invitedCount = members.data.filter((member) => member.status === 'invited').length;
  const memberCount = members.data.length - invitedCount;
  const myKey = me.data?.ownerKey;
  const error = setMember.error ?? removeMember.error ?? deleteWorkspace.error;
  const goHome = () => void navigate(folderPath({ kind: 'personal' }));

  const onConfirm = () => {
    if (!confirm) return;
    const done = { onSuccess: () => setConfirm(null), onError: () => setConfirm(null) };
    if (confirm.kind === 'remove') removeMember.mutate(confirm.member.ownerKey, done);
    else if (confirm.kind === 'owner') setMember.mutate({ userId: confirm.member.ownerKey, role: 'owner' }, done);
    else if (confirm.kind === 'leave' && myKey) {
      removeMember.mutate(myKey, { onSuccess: goHome, onError: () => setConfirm(null) });
    } else if (confirm.kind === 'delete') {
      deleteWorkspace.mutate(undefined, { onSuccess: goHome, onError: () => setConfirm(null) });
    }
  };

  const confirmText = (() => {
    switch (confirm?.kind) {
      case 'remove':
        if (confirm.member.status === 'invited') {
          return {
            title: 'Withdraw invitation?',
            message: `${displayName(confirm.member)} will no longer be able to join ${workspace.data.name}.`,
            label: 'Withdraw',
          };
        }
        return {
          title: 'Remove member?',
          message: `${displayName(confirm.member)} will lose access to ${workspace.data.name}.`,
          label: 'Remove',
        };
      case 'owner':
        return {
          title: 'Make owner?',
          message: `${displayName(confirm.member)} will be able to manage members and delete ${workspace.data.name}.`,
          label: 'Make owner',
        };
      case 'leave':
        return {
          title: 'Leave workspace?',
          message: `You will lose access to ${workspace.data.name} until an owner adds you again.`,
          label: 'Leave',
        };
      case 'delete':
        return {
          title: 'Delete workspace?',
          message: `${workspace.data.name} and all its folders and files will be deleted for every member.`,
          label: 'Delete workspace',
        };
      default:
        return { title: '', message: '', label: '' };
    }
  })();

  return (
    <section className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <header className="space-y-2">
        <Link
          to={folderPath({ kind: 'workspace', id: workspaceId })}
          className="inline-flex items-center gap-1 rounded text-sm text-brand-700 hover:underline"
        >
          <ArrowLeft className="size-4" aria-hidden="true" /> Files of {workspace.data.name}
        </Link>
        <h1 className="break-words text-2xl font-semibold tracking-tight text-slate-900">
          Members of {workspace.data.name}
        </h1>
        <p className="text-sm text-slate-600">
          Owners manage members and the workspace; editors add, change and delete content; viewers read and download.
        </p>
      </header>

      {error && <Alert variant="box">{errorText(error)}</Alert>}

      <section aria-labelledby="members-title" className="rounded-xl border border-slate-200 bg-white p-4">
        <h2 id="members-title" className="font-semibold text-slate-900">
          {memberCount} {memberCount === 1 ? 'member' : 'members'}
          {invitedCount > 0 && `, ${invitedCount} invited`}
        </h2>
        <ul aria-label="Members" className="mt-2 divide-y divide-slate-100">
          {members.data.map((member) => {
            const self = member.ownerKey === myKey;
            const name = displayName(member);
            // Invited, not accepted yet: no access until they accept (docs/PRODUCT.md#workspace-members).
            if (member.status === 'invited') {
              return (
                <li key={member.ownerKey} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3">
                  <Person user={member} />
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">
                      Invited
                    </span>
                    <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
                      {ROLES.find((option) => option.value === member.role)?.label}
                    </span>
                    {isOwner && (
                      <button
                        type="button"
                        onClick={() => setConfirm({ kind: 'remove', member })}
                        aria-label={`Withdraw the invitation of ${name}`}
                        className="rounded-lg px-2 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
                      >
                        Withdraw
                      </button>
                    )}
                  </div>
                </li>
              );
            }
            return (
              <li key={member.ownerKey} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3">
                <Person user={member} />
                <div className="flex flex-wrap items-center gap-2">
                  {isOwner && !self ? (
                    <select
                      aria-label={`Role of ${name}`}
                      value={member.role}
                      disabled={setMember.isPending}
                      onChange={(event) =>
                        setMember.mutate({ userId: member.ownerKey, role: event.target.value as MemberRole })
                      }
                      className={selectClass}
                    >
                      {ROLES.map((option) => (
                        <option key={option.value} value={option.value}>
                          {option.label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">
                      {ROLES.find((option) => option.value === member.role)?.label}
                      {self ? ' (you)' : ''}
                    </span>
                  )}
                  {isOwner && !self && member.role !== 'owner' && (
                    <button
                      type="button"
                      onClick={() => setConfirm({ kind: 'owner', member })}
                      aria-label={`Make owner: ${name}`}
                      className="rounded-lg px-2 py-1.5 text-sm font-medium text-brand-700 hover:bg-brand-50"
                    >
                      Make owner
                    </button>
                  )}
                  {isOwner && !self && (
                    <button
                      type="button"
                      onClick={() => setConfirm({ kind: 'remove', member })}
                      aria-label={`Remove ${name}`}
                      className="rounded-lg px-2 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
                    >
                      Remove
                    </button>
                  )}
                  {self && (
                    <button
                      type="button"
                      onClick={() => setConfirm({ kind: 'leave' })}
                      className="rounded-lg px-2 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
                    >
                      Leave
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      </section>

      {isOwner && <AddMember workspaceId={workspaceId} members={members.data} />}

      {isOwner && invite?.(workspaceId)}

      {isOwner && <MessageMembers workspaceId={workspaceId} />}

      {isOwner && (
        <section aria-labelledby="settings-title" className="space-y-4 rounded-xl border border-slate-200 bg-white p-4">
          <h2 id="settings-title" className="font-semibold text-slate-900">
            Workspace
          </h2>
          <RenameWorkspace key={workspace.data.name} workspaceId={workspaceId} name={workspace.data.name} />
          <WorkspaceAnalysis workspaceId={workspaceId} />
          <div className="border-t border-slate-100 pt-4">
            <button type="button" onClick={() => setConfirm({ kind: 'delete' })} className={buttonClass('danger')}>
              Delete workspace
            </button>
          </div>
        </section>
      )}

      <ConfirmDialog
        open={confirm !== null}
        title={confirmText.title}
        message={confirmText.message}
        confirmLabel={confirmText.label}
        busy={setMember.isPending || removeMember.isPending || deleteWorkspace.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={onConfirm}
      />
    </section>
  );
}

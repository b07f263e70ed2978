import type { InvitationCreated, MemberRole } from '@atrium/contracts';
import { useId, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { inputClass, TextField } from '../../../components/ui/text-field';
import { errorText } from '../../../lib/api-error';
import {
  useInviteToWorkspace,
  useResendInvitation,
  useRevokeInvitation,
  useWorkspaceInvitations,
} from '../api/invitations-api';

const ROLES: { value: MemberRole; label: string }[] = [
  { value: 'viewer', label: 'Viewer' },
  { value: 'editor', label: 'Editor' },
  { value: 'owner', label: 'Owner' },
];
const selectClass =
  'rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600';
const when = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** The link just made, to copy (it is shown only now); "Sent by email" when the server mailed it. */
function NewLink({ created }: { created: InvitationCreated }) {
  const field = useRef<HTMLInputElement>(null);
  const absolute = new URL(created.url, window.location.origin).toString();
  return (
    <div className="mt-3 space-y-2 rounded-lg bg-brand-50 p-3" role="status">
      <p className="text-sm text-slate-700">
        Invitation link (valid until {when(created.expiresAt)})
        {created.emailed ? ' — sent by email.' : '. Send it to them:'}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={field}
          readOnly
          value={absolute}
          aria-label="Invitation link"
          className={`${inputClass} flex-1 font-mono text-xs`}
          onFocus={(event) => event.target.select()}
        />
        <CopyButton text={absolute} field={field} what="Link" />
      </div>
    </div>
  );
}

/**
 * "Invite by email" on a workspace's members screen (owners; docs/PRODUCT.md#invitations): email and role → the link
 * to copy; the pending invitations with Resend and Revoke.
 */
export function InviteByEmail({ workspaceId }: { workspaceId: string }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('editor');
  const [created, setCreated] = useState<InvitationCreated | null>(null);
  const roleId = useId();
  const invite = useInviteToWorkspace(workspaceId);
  const pending = useWorkspaceInvitations(workspaceId);
  const revoke = useRevokeInvitation(workspaceId);
  const resend = useResendInvitation(workspaceId);
  const error = invite.error ?? revoke.error ?? resend.error;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (answer) => {
          setCreated(answer);
          setEmail('');
        },
      },
    );
  };

  return (
    <section aria-labelledby="invite-title" className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id="invite-title" className="font-semibold text-slate-900">
        Invite by email
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        For people without an account yet: they get a link to create one and join with the role you choose.
      </p>
      <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-2">
        <TextField
          label="Email address"
          type="email"
          required
          autoComplete="off"
          value={email}
          onChange={setEmail}
          className="min-w-0 flex-1 basis-56"
        />
        <div>
          <label htmlFor={roleId} className="block text-sm font-medium text-slate-700">
            Role
          </label>
          <select
            id={roleId}
            value={role}
            onChange={(event) => setRole(event.target.value as MemberRole)}
            className={`mt-1 ${selectClass}`}
          >
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClass()} disabled={invite.isPending || !email.trim()}>
          {invite.isPending ? 'Inviting…' : 'Invite'}
        </button>
      </form>
      {error && (
        <Alert variant="box" className="mt-3">
          {errorText(error)}
        </Alert>
      )}
      {created && <NewLink created={created} />}

      <h3 className="mt-4 text-sm font-semibold text-slate-900">Pending invitations</h3>
      {pending.isPending ? (
        <p className="mt-1 text-sm text-slate-500">Loading…</p>
      ) : pending.isError ? (
        <Alert className="mt-1">{errorText(pending.error)}</Alert>
      ) : pending.data.items.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">No pending invitations.</p>
      ) : (
        <ul aria-label="Pending invitations" className="mt-1 divide-y divide-slate-100">
          {pending.data.items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2">
              <div className="min-w-0 flex-1">
                <p className="break-all text-sm font-medium text-slate-900">{item.email}</p>
                <p className="text-xs text-slate-500">
                  {item.role} · {item.expired ? 'expired' : `until ${when(item.expiresAt)}`}
                </p>
              </div>
              <button
                type="button"
                className={buttonClass('secondary')}
                aria-label={`Resend invitation to ${item.email}`}
                disabled={resend.isPending}
                onClick={() => resend.mutate(item.id, { onSuccess: setCreated })}
              >
                Resend
              </button>
              <button
                type="button"
                className={buttonClass('danger')}
                aria-label={`Revoke invitation to ${item.email}`}
                disabled={revoke.isPending}
                onClick={() => revoke.mutate(item.id)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

import { useId, useState } from 'react';
import { HandOver } from './hand-over';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { errorText } from '../../../lib/api-error';
import {
  useCreateLocalUser,
  useInstanceInvitations,
  useInvitationSettings,
  useInviteToInstance,
  useRevokeInstanceInvitation,
  useUpdateInvitationSettings,
} from '../api/invitations-api';

type Role = 'user' | 'admin';
const selectClass =
  'mt-1 rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm focus-visible:outline-2 focus-visible:outline-brand-600';
const card = 'rounded-xl border border-slate-200 bg-white p-4';

function RoleSelect({ value, onChange }: { value: Role; onChange: (role: Role) => void }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        Role
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as Role)} className={selectClass}>
        <option value="user">User</option>
        <option value="admin">Admin</option>
      </select>
    </div>
  );
}

function InviteToInstance() {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('user');
  const invite = useInviteToInstance();
  const pending = useInstanceInvitations();
  const revoke = useRevokeInstanceInvitation();
  return (
    <section aria-labelledby="instance-invite-title" className={card}>
      <h2 id="instance-invite-title" className="font-semibold text-slate-900">
        Invite to Atrium
      </h2>
      <form
        className="mt-3 flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          invite.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail('') });
        }}
      >
        <TextField
          label="Email address"
          type="email"
          required
          value={email}
          onChange={setEmail}
          className="min-w-0 flex-1 basis-56"
        />
        <RoleSelect value={role} onChange={setRole} />
        <button type="submit" className={buttonClass()} disabled={invite.isPending || !email.trim()}>
          Invite
        </button>
      </form>
      {(invite.error ?? revoke.error) && (
        <Alert variant="box" className="mt-3">
          {errorText(invite.error ?? revoke.error)}
        </Alert>
      )}
      {invite.data && <HandOver label="Invitation link" url={invite.data.url} expiresAt={invite.data.expiresAt} />}
      <h3 className="mt-4 text-sm font-semibold text-slate-900">Pending invitations</h3>
      {pending.data?.items.length ? (
        <ul aria-label="Pending invitations to Atrium" className="mt-1 divide-y divide-slate-100">
          {pending.data.items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center gap-2 py-2">
              <span className="min-w-0 flex-1 break-all text-sm">
                {item.email}{' '}
                <span className="text-xs text-slate-500">
                  · {item.role}
                  {item.invitedBy ? ` · invited by ${item.invitedBy.name}` : ' · asked on the sign-up page'}
                  {item.expired ? ' · expired' : ''}
                </span>
              </span>
              <button
                type="button"
                className={buttonClass('danger')}
                aria-label={`Revoke invitation to ${item.email}`}
                onClick={() => revoke.mutate(item.id)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-slate-500">{pending.isPending ? 'Loading…' : 'No pending invitations.'}</p>
      )}
    </section>
  );
}

function CreateLocalAccount() {
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('user');
  const create = useCreateLocalUser();
  return (
    <section aria-labelledby="local-account-title" className={card}>
      <h2 id="local-account-title" className="font-semibold text-slate-900">
        Local accounts
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Create an account that signs in with a password here; hand over the link so the person sets it. A new link for
        an account that exists: Reset link on its row in the list above.
      </p>
      <form
        className="mt-3 grid gap-2 sm:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate({
            username: username.trim(),
            role,
            ...(email.trim() ? { email: email.trim() } : {}),
            ...(name.trim() ? { name: name.trim() } : {}),
          });
        }}
      >
        <TextField label="Username" required value={username} onChange={setUsername} autoComplete="off" />
        <TextField label="Name" value={name} onChange={setName} autoComplete="off" />
        <TextField label="Email address (optional)" type="email" value={email} onChange={setEmail} autoComplete="off" />
        <div className="flex items-end gap-2">
          <RoleSelect value={role} onChange={setRole} />
          <button type="submit" className={buttonClass()} disabled={create.isPending || !username.trim()}>
            Create account
          </button>
        </div>
      </form>
      {create.error && (
        <Alert variant="box" className="mt-3">
          {errorText(create.error)}
        </Alert>
      )}
      {create.data && (
        <HandOver label="Link to set the password" url={create.data.url} expiresAt={create.data.expiresAt} />
      )}
    </section>
  );
}

function InvitationSettingsForm() {
  const settings = useInvitationSettings();
  const update = useUpdateInvitationSettings();
  const [domains, setDomains] = useState<string | null>(null);
  const whoId = useId();
  if (!settings.data) return null;
  const shownDomains = domains ?? settings.data.signUpDomains.join(', ');
  return (
    <section aria-labelledby="invite-settings-title" className={card}>
      <h2 id="invite-settings-title" className="font-semibold text-slate-900">
        Invitation settings
      </h2>
      <div className="mt-3">
        <label htmlFor={whoId} className="block text-sm font-medium text-slate-700">
          Who may invite to workspaces
        </label>
        <select
          id={whoId}
          value={settings.data.whoMayInvite}
          onChange={(event) => update.mutate({ whoMayInvite: event.target.value as 'admins' | 'owners' })}
          className={selectClass}
        >
          <option value="owners">Workspace owners and admins</option>
          <option value="admins">Admins only</option>
        </select>
      </div>
      <form
        className="mt-3 flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          const list = shownDomains
            .split(/[\s,]+/)
            .map((d) => d.trim())
            .filter(Boolean);
          update.mutate({ signUpDomains: list }, { onSuccess: () => setDomains(null) });
        }}
      >
        <TextField
          label="Self-sign-up email domains"
          value={shownDomains}
          onChange={setDomains}
          hint="Empty: sign-up is closed. Separate domains with commas. Sign-up also needs email (SMTP_URL) to confirm addresses."
          className="min-w-0 flex-1 basis-56"
        />
        <button type="submit" className={buttonClass('secondary')} disabled={update.isPending}>
          Save domains
        </button>
      </form>
      {update.error && (
        <Alert variant="box" className="mt-3">
          {errorText(update.error)}
        </Alert>
      )}
    </section>
  );
}

/** The admin Users screen's accounts part (docs/PRODUCT.md#invitations): invite, local accounts, reset links, settings. */
export function AdminAccounts() {
  return (
    <div className="mx-auto max-w-6xl space-y-4 px-4 pb-8">
      <InviteToInstance />
      <CreateLocalAccount />
      <InvitationSettingsForm />
    </div>
  );
}

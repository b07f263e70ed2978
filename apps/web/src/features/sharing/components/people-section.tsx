import type { DirectoryUser, Share, ShareRole } from '@atrium/contracts';
import { useQuery } from '@tanstack/react-query';
import { Building2, UserRound, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { buttonClass } from '../../../components/ui/button';
import { useMe } from '../../../lib/me';
import { useDebounced } from '../../../lib/use-debounced';
import {
  directoryQueryOptions,
  sharesQueryOptions,
  spacesQueryOptions,
  useShareMutations,
  type Grantee,
  type ShareTarget,
} from '../api/sharing-api';
import { ROLE_LABELS, displayName, errorText } from './sharing-texts';

const fieldClass =
  'w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-600 focus:outline-none focus-visible:outline-2 focus-visible:outline-brand-600';

function RoleSelect({
  value,
  onChange,
  label,
  disabled,
}: {
  value: ShareRole;
  onChange: (role: ShareRole) => void;
  label: string;
  disabled?: boolean;
}) {
  return (
    <select
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value === 'editor' ? 'editor' : 'viewer')}
      className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <option value="viewer">{ROLE_LABELS.viewer}</option>
      <option value="editor">{ROLE_LABELS.editor}</option>
    </select>
  );
}

const granteeOf = (share: Share): Grantee =>
  share.grantee.kind === 'user'
    ? { kind: 'user', id: share.grantee.user.ownerKey }
    : { kind: 'workspace', id: share.grantee.id };

const granteeName = (share: Share) =>
  share.grantee.kind === 'user' ? displayName(share.grantee.user) : share.grantee.name;

/** Add people (directory search) or a workspace, and the list of who has access with role changes and revoke. */
export function PeopleSection({ target }: { target: ShareTarget }) {
  const searchId = useId();
  const resultsId = useId();
  const workspaceId = useId();
  const [query, setQuery] = useState('');
  const [newRole, setNewRole] = useState<ShareRole>('viewer');
  const [workspace, setWorkspace] = useState('');
  const settled = useDebounced(query.trim());
  const shares = useQuery(sharesQueryOptions(target));
  const directory = useQuery({ ...directoryQueryOptions(settled), enabled: settled.length > 0 });
  const spaces = useQuery(spacesQueryOptions());
  const { set, revoke } = useShareMutations(target);
  const [status, setStatus] = useState('');

  const shared = new Set((shares.data?.shares ?? []).map((share) => `${share.grantee.kind}:${granteeOf(share).id}`));
  const me = useMe();
  const owner = shares.data?.owner;
  // Not offered: the owner, the caller, people and workspaces with a grant, and the workspace holding the item.
  const candidates = (directory.data ?? []).filter(
    (user) =>
      !(owner?.kind === 'user' && owner.user.ownerKey === user.ownerKey) &&
      user.ownerKey !== me.data?.ownerKey &&
      !shared.has(`user:${user.ownerKey}`),
  );
  const workspaces = (spaces.data ?? []).flatMap((space) =>
    space.kind === 'workspace' &&
    !shared.has(`workspace:${space.id}`) &&
    !(owner?.kind === 'workspace' && owner.id === space.id)
      ? [space]
      : [],
  );

  const add = (grantee: Grantee, name: string) =>
    set.mutate(
      { grantee, role: newRole },
      {
        onSuccess: () => {
          setStatus(`Shared with ${name} as ${ROLE_LABELS[newRole].toLowerCase()}.`);
          setQuery('');
          setWorkspace('');
        },
      },
    );
  const error = set.error ?? revoke.error;

  return (
    <section aria-labelledby={`${searchId}-heading`} className="space-y-4">
      <h3 id={`${searchId}-heading`} className="text-base font-semibold text-slate-900">
        People
      </h3>
      <div className="space-y-2">
        <label htmlFor={searchId} className="block text-sm font-medium text-slate-700">
          Add people
        </label>
        <div className="flex gap-2">
          <input
            id={searchId}
            data-autofocus
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder="Name, nickname or email"
            autoComplete="off"
            aria-controls={resultsId}
            className={fieldClass}
          />
          <RoleSelect value={newRole} onChange={setNewRole} label="Role for new people" />
        </div>
        <div id={resultsId} aria-live="polite">
          {settled.length > 0 && directory.isSuccess && candidates.length === 0 && (
            <p className="text-sm text-slate-600">No one else matches “{settled}”.</p>
          )}
          {candidates.length > 0 && (
            <ul aria-label="Matching people" className="divide-y divide-slate-100 rounded-lg border border-slate-200">
              {candidates.map((user: DirectoryUser) => (
                <li key={user.ownerKey}>
                  <button
                    type="button"
                    disabled={set.isPending}
                    aria-label={`Add ${displayName(user)}${user.email ? ` (${user.email})` : ''}`}
                    onClick={() => add({ kind: 'user', id: user.ownerKey }, displayName(user))}
                    className="flex w-full items-center gap-3 px-3 py-2 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
                  >
                    <UserRound aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-medium text-slate-900">{displayName(user)}</span>
                      {user.email && <span className="block truncate text-slate-600">{user.email}</span>}
                    </span>
                    <span className="shrink-0 text-brand-700">Add</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>

      {workspaces.length > 0 && (
        <form
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            const chosen = workspaces.find((space) => space.id === workspace);
            if (chosen) add({ kind: 'workspace', id: chosen.id }, chosen.name);
          }}
        >
          <label htmlFor={workspaceId} className="block text-sm font-medium text-slate-700">
            Share with a workspace
          </label>
          <div className="flex gap-2">
            <select
              id={workspaceId}
              value={workspace}
              onChange={(event) => setWorkspace(event.target.value)}
              className={fieldClass}
            >
              <option value="">Choose a workspace…</option>
              {workspaces.map((space) => (
                <option key={space.id} value={space.id}>
                  {space.name}
                </option>
              ))}
            </select>
            <button type="submit" disabled={!workspace || set.isPending} className={buttonClass('secondary')}>
              Add
            </button>
          </div>
        </form>
      )}

      <p role="status" className="sr-only">
        {status}
      </p>
      {error && <Alert>{errorText(error)}</Alert>}

      <div>
        <h4 className="text-sm font-medium text-slate-700">Who has access</h4>
        {shares.isPending ? (
          <p className="mt-2 text-sm text-slate-500">Loading…</p>
        ) : shares.isError ? (
          <Alert className="mt-2">{errorText(shares.error)}</Alert>
        ) : (
          <ul aria-label="Who has access" className="mt-2 divide-y divide-slate-100">
            <li className="flex items-center gap-3 py-2 text-sm">
              {shares.data.owner.kind === 'user' ? (
                <UserRound aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
              ) : (
                <Building2 aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
              )}
              <span className="min-w-0 flex-1 truncate font-medium text-slate-900">
                {shares.data.owner.kind === 'user' ? displayName(shares.data.owner.user) : shares.data.owner.name}
              </span>
              <span className="shrink-0 text-slate-600">
                {shares.data.owner.kind === 'user' ? 'Owner' : 'Workspace (owner)'}
              </span>
            </li>
            {shares.data.shares.map((share) => {
              const name = granteeName(share);
              return (
                <li key={share.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
                  {share.grantee.kind === 'user' ? (
                    <UserRound aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
                  ) : (
                    <Building2 aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
                  )}
                  <span className="min-w-0 flex-1 truncate">
                    <span className="font-medium text-slate-900">{name}</span>
                    {share.grantee.kind === 'workspace' && <span className="text-slate-600"> · workspace</span>}
                  </span>
                  <span className="flex items-center gap-1">
                    <RoleSelect
                      value={share.role}
                      label={`Role for ${name}`}
                      disabled={set.isPending}
                      onChange={(role) => set.mutate({ grantee: granteeOf(share), role })}
                    />
                    <button
                      type="button"
                      onClick={() =>
                        revoke.mutate(granteeOf(share), { onSuccess: () => setStatus(`${name} no longer has access.`) })
                      }
                      disabled={revoke.isPending}
                      aria-label={`Remove ${name}`}
                      className="rounded-lg p-1.5 text-slate-600 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-brand-600"
                    >
                      <X aria-hidden="true" className="size-4" />
                    </button>
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}

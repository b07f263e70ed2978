import { Building2, Plus, ScanFace, UserRound, Users } from 'lucide-react';
import { useState } from 'react';
import { NavLink } from 'react-router';
import { useSpaces } from '../api/spaces-api';
import { folderPath, membersPath, peoplePath, spaceRefOf } from '../lib/browser-logic';
import { NewWorkspaceDialog } from './new-workspace-dialog';
import { Alert } from '../../../components/ui/alert';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `flex min-w-0 flex-1 items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors ${
    isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
  }`;

/**
 * The sidebar's space switcher: the personal space, then each workspace (with links to its people and members), and
 * "New workspace". Selecting a space opens its file browser.
 */
export function SpaceSwitcher({ collapsed = false, onNavigate }: { collapsed?: boolean; onNavigate?: () => void }) {
  const spaces = useSpaces();
  const [creating, setCreating] = useState(false);
  return (
    <section aria-label="Spaces" className="border-t border-slate-200 pt-4">
      {!collapsed && <h2 className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">Spaces</h2>}
      {spaces.isError && !collapsed && (
        <Alert size="xs" className="px-3">
          Could not load your spaces.
        </Alert>
      )}
      <ul className="space-y-1">
        {(spaces.data ?? []).map((space) => {
          const ref = spaceRefOf(space);
          const Icon = space.kind === 'personal' ? UserRound : Building2;
          return (
            <li key={space.rootFolderId} className="flex items-center gap-1">
              <NavLink
                to={folderPath(ref)}
                onClick={onNavigate}
                title={collapsed ? space.name : undefined}
                className={(state) => `${linkClass(state)} ${collapsed ? 'justify-center' : ''}`}
              >
                <Icon className="size-5 shrink-0" aria-hidden="true" />
                <span className={collapsed ? 'sr-only' : 'truncate'}>{space.name}</span>
              </NavLink>
              {!collapsed && (
                <NavLink
                  to={peoplePath(ref)}
                  onClick={onNavigate}
                  aria-label={`People in ${space.name}`}
                  title="People"
                  className="shrink-0 rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  <ScanFace className="size-4" aria-hidden="true" />
                </NavLink>
              )}
              {space.kind === 'workspace' && !collapsed && (
                <NavLink
                  to={membersPath(space.id)}
                  onClick={onNavigate}
                  aria-label={`Members of ${space.name}`}
                  title="Members"
                  className="shrink-0 rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  <Users className="size-4" aria-hidden="true" />
                </NavLink>
              )}
            </li>
          );
        })}
        <li>
          <button
            type="button"
            onClick={() => setCreating(true)}
            title={collapsed ? 'New workspace' : undefined}
            className={`flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-brand-700 hover:bg-brand-50 ${
              collapsed ? 'justify-center' : ''
            }`}
          >
            <Plus className="size-5 shrink-0" aria-hidden="true" />
            <span className={collapsed ? 'sr-only' : ''}>New workspace</span>
          </button>
        </li>
      </ul>
      {creating && <NewWorkspaceDialog onClose={() => setCreating(false)} />}
    </section>
  );
}

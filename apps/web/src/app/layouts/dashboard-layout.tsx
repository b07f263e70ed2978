import { PAGES } from '@atrium/contracts/pages';
import { Menu, X } from 'lucide-react';
import { Suspense, useEffect, useState } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { StarButton } from '../../components/star-button';
import { logout, useMe } from '../../lib/me';
import { lastSessionEndReason, loginPathFor } from '../../lib/session-end';
import { useSessionEnd } from '../use-session-end';
import { DashboardShell } from './dashboard-shell';
import { useContactUnreadCount } from '../../features/admin';
import { FloatingAssistant } from '../../features/assistant';
import { Sidebar } from '../../features/dashboard/components/sidebar';
import { NotificationsRuntime, useUnreadCount } from '../../features/notifications';
import { ShareHost } from '../../features/sharing';
import { FileDetailsPanel, SpaceSwitcher, VersionsDialog } from '../../features/spaces';
import { FileViewerHost, useViewerOpen, type ViewerSlots } from '../../features/viewer';

const COLLAPSED_KEY = 'atrium.sidebarCollapsed';

/** What the file viewer borrows from the spaces feature (and the Star button's slot, `star`, for starring). */
const VIEWER_SLOTS: ViewerSlots = {
  versions: (props) => <VersionsDialog {...props} />,
  details: (props) => <FileDetailsPanel {...props} />,
  star: ({ fileId, name }) => <StarButton id={fileId} name={name} shortcut="s" />,
};

/** Signed-in area: requires a session (else /login, then back here), sidebar plus page. */
export function DashboardLayout() {
  const me = useMe();
  const ended = useSessionEnd();
  const location = useLocation();
  const unreadCount = useUnreadCount();
  const viewerOpen = useViewerOpen();
  const contactUnread = useContactUnreadCount(me.data?.isAdmin === true);
  const itemBadges = { [PAGES.messages.path]: contactUnread.data ?? 0 };
  const [collapsed, setCollapsed] = useState(() => localStorage.getItem(COLLAPSED_KEY) === 'true');
  // The drawer belongs to the page it was opened on: navigating closes it.
  const [drawerOpenOn, setDrawerOpenOn] = useState<string | null>(null);
  const drawerOpen = drawerOpenOn === location.pathname;
  const setDrawerOpen = (open: boolean) => setDrawerOpenOn(open ? location.pathname : null);
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setDrawerOpenOn(null);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawerOpen]);

  if (me.isPending) return <DashboardShell collapsed={collapsed} />;
  if (me.isError) {
    return (
      <main className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-2xl font-semibold">We could not check your session</h1>
        <p className="mt-3 text-slate-600">{me.error.message}</p>
      </main>
    );
  }
  if (!me.data || ended) {
    // Why the session ended (docs/PRODUCT.md#session-end-reasons); a visit without any session just signs in.
    const reason = ended ?? lastSessionEndReason();
    const to = reason !== 'missing' ? loginPathFor(reason) : PAGES.login.path;
    return <Navigate to={to} replace state={{ from: `${location.pathname}${location.search}` }} />;
  }

  const toggleCollapsed = () =>
    setCollapsed((value) => {
      localStorage.setItem(COLLAPSED_KEY, String(!value));
      return !value;
    });
  const onLogout = () => void logout();

  return (
    <div className="flex min-h-screen bg-slate-50 text-slate-900">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <aside
        aria-label="Sidebar"
        data-testid="sidebar"
        className={`sticky top-0 hidden h-screen shrink-0 overflow-y-auto overscroll-contain border-r border-slate-200 bg-white transition-[width] duration-200 md:block ${
          collapsed ? 'w-18' : 'w-64'
        }`}
      >
        <Sidebar
          me={me.data}
          unreadCount={unreadCount}
          itemBadges={itemBadges}
          onLogout={onLogout}
          collapsed={collapsed}
          onToggleCollapsed={toggleCollapsed}
          switcher={<SpaceSwitcher collapsed={collapsed} />}
        />
      </aside>
      {drawerOpen && (
        <div className="fixed inset-0 z-50 md:hidden">
          <button
            type="button"
            aria-label="Close menu"
            tabIndex={-1}
            className="absolute inset-0 bg-slate-900/50"
            onClick={() => setDrawerOpen(false)}
          />
          <aside
            aria-label="Sidebar"
            data-testid="drawer"
            className="absolute inset-y-0 left-0 w-72 max-w-[85vw] overflow-y-auto bg-white shadow-xl"
          >
            <button
              type="button"
              onClick={() => setDrawerOpen(false)}
              aria-label="Close menu"
              className="absolute right-3 top-3 rounded-lg p-2 text-slate-600 hover:bg-slate-100"
            >
              <X className="size-5" aria-hidden="true" />
            </button>
            <Sidebar
              me={me.data}
              unreadCount={unreadCount}
              itemBadges={itemBadges}
              onLogout={onLogout}
              collapsed={false}
              onNavigate={() => setDrawerOpen(false)}
              switcher={<SpaceSwitcher onNavigate={() => setDrawerOpen(false)} />}
            />
          </aside>
        </div>
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white px-4 md:hidden">
          <button
            type="button"
            onClick={() => setDrawerOpen(true)}
            aria-label="Open menu"
            aria-expanded={drawerOpen}
            className="rounded-lg p-2 text-slate-700 hover:bg-slate-100"
          >
            <Menu className="size-5" aria-hidden="true" />
          </button>
          <Link to={PAGES.dashboard.path} className="rounded-md text-lg font-bold tracking-tight text-brand-700">
            Atrium
          </Link>
        </header>
        {/* The latest-message banner floats over the top of the page: content under the caret never moves. */}
        <NotificationsRuntime />
        <main id="main" className="flex-1 pb-24">
          {/* Any page's menus can open the share dialog (lib/share-action.ts). */}
          <ShareHost>
            <Suspense fallback={<Spinner />}>
              <Outlet />
            </Suspense>
            {/* `?file=<id>` on any signed-in page opens the file viewer over it (docs/PRODUCT.md#file-viewer). */}
            <FileViewerHost {...VIEWER_SLOTS} />
          </ShareHost>
        </main>
      </div>
      {/* The viewer takes the whole screen: the floating icons would cover its controls. */}
      {!viewerOpen && <FloatingAssistant chat="link" />}
    </div>
  );
}

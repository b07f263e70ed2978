import { Suspense } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { logout, useMe } from '../../lib/me';
import { NotificationBell, NotificationsRuntime } from '../../features/notifications';

/** Signed-in area: requires a session (else /login, then back here), sidebar plus page. */
export function DashboardLayout() {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Spinner label="Checking your session…" />;
  if (me.isError) {
    return (
      <main className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-2xl font-semibold">We could not check your session</h1>
        <p className="mt-3 text-slate-600">{me.error.message}</p>
      </main>
    );
  }
  if (!me.data) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;

  return (
    <div className="flex min-h-screen bg-slate-50 text-slate-900">
      <aside aria-label="Sidebar" className="hidden w-64 shrink-0 border-r border-slate-200 bg-white p-4 md:block">
        <Link to="/dashboard" className="text-lg font-bold tracking-tight text-brand-700">
          Atrium
        </Link>
        <button
          type="button"
          onClick={() => void logout()}
          className="mt-6 block rounded-lg px-3 py-2 text-sm text-slate-700 hover:bg-slate-100"
        >
          Logout
        </button>
        <nav aria-label="Dashboard" className="mt-6">
          <NotificationBell />
        </nav>
      </aside>
      <NotificationsRuntime />
      <main id="main" className="flex-1">
        <div className="border-b border-slate-200 bg-white p-2 md:hidden">
          <NotificationBell />
        </div>
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

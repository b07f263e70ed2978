import { Spinner } from '../../components/ui/spinner';

const NAV_PLACEHOLDERS = 8;

/**
 * The signed-in area's frame while the session is checked: the side bar (from md up) or the top bar (below) of
 * `DashboardLayout`, empty, beside its "Checking your session…" status. The build writes it into the HTML the
 * server sends for /dashboard/* (apps/web/prerender.mjs), so the page paints before its JavaScript has run;
 * the layout renders the same frame until `/api/me` answers, so nothing moves when React takes over.
 */
export function DashboardShell({ collapsed = false }: { collapsed?: boolean }) {
  return (
    <div className="flex min-h-screen bg-slate-50 text-slate-900" data-shell="dashboard">
      <div
        aria-hidden="true"
        className={`sticky top-0 hidden h-screen shrink-0 border-r border-slate-200 bg-white md:block ${
          collapsed ? 'w-18' : 'w-64'
        }`}
      >
        <div className="flex flex-col gap-4 p-3">
          <div className={`flex h-9 items-center ${collapsed ? 'justify-center' : 'justify-between'}`}>
            {!collapsed && <span className="px-2 text-lg font-bold tracking-tight text-brand-700">Atrium</span>}
            <span className="size-9 rounded-lg" />
          </div>
          {!collapsed && <span className="h-9.5 rounded-lg border border-slate-300" />}
          <div className="space-y-1">
            {Array.from({ length: NAV_PLACEHOLDERS }, (_, index) => (
              <span key={index} className="block h-9 rounded-lg bg-slate-100" />
            ))}
          </div>
        </div>
      </div>
      <div className="flex min-w-0 flex-1 flex-col">
        <div
          aria-hidden="true"
          className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white px-4 md:hidden"
        >
          <span className="size-9 rounded-lg" />
          <span className="text-lg font-bold tracking-tight text-brand-700">Atrium</span>
        </div>
        <main id="main" className="flex-1 pb-24">
          <Spinner label="Checking your session…" />
        </main>
      </div>
    </div>
  );
}

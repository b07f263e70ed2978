import { Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { FloatingAssistant } from '../../features/assistant';
import { Logo, SITE_NAV, SiteHeader } from './site-header';

/** Public site: header, page, footer, and the floating chat and voice icons. */
export function PublicLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-white text-slate-900">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="flex-1">
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="border-t border-slate-200 bg-slate-50">
        <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-[2fr_1fr_1fr]">
          <div>
            <Link to="/" className="inline-flex items-center gap-2 rounded-md font-bold text-slate-900">
              <Logo />
              <span>Atrium</span>
            </Link>
            <p className="mt-3 max-w-sm text-sm text-slate-600">
              The self-hostable AI workspace for teams: files, speech, vision, notifications and an assistant, on your
              own machine.
            </p>
          </div>
          <nav aria-label="Footer">
            <h2 className="text-sm font-semibold text-slate-900">Product</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {SITE_NAV.map((item) => (
                <li key={item.to}>
                  <Link to={item.to} className="rounded text-slate-600 hover:text-slate-900">
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div>
            <h2 className="text-sm font-semibold text-slate-900">Get going</h2>
            <p className="mt-3 text-sm text-slate-600">Every feature, on your own server. No credit card.</p>
            <Link
              to="/login"
              className="mt-3 inline-block rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
            >
              Sign in
            </Link>
          </div>
        </div>
        {/* pb-24: room at the very bottom for the floating chat and voice icons, so they cover no control. */}
        <p className="border-t border-slate-200 pt-5 pb-24 text-center text-sm text-slate-600">
          © {new Date().getFullYear()} Atrium. Launched 28 April 2025.
        </p>
      </footer>
      <FloatingAssistant chat="overlay" />
    </div>
  );
}

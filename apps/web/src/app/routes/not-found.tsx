import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { useDocumentTitle } from '../../lib/use-document-title';

export interface NotFoundPageProps {
  /** Where the way back leads: the home page on the public site, the dashboard inside it. */
  backTo?: '/' | '/dashboard';
}

/**
 * The not-found page. On the public site it is also prerendered at build time and sent by the server with
 * status 404 for unknown paths (apps/web/prerender.mjs, apps/server/src/plugins/spa.ts).
 */
export default function NotFoundPage({ backTo = '/' }: NotFoundPageProps) {
  useDocumentTitle('Page not found');
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-600">404</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900">Page not found</h1>
      <p className="mt-3 text-slate-600">The page you asked for does not exist or has moved.</p>
      <Link to={backTo} className={`${buttonClass()} mt-8 min-h-11`}>
        {backTo === '/dashboard' ? 'Back to the dashboard' : 'Back to the home page'}
      </Link>
    </section>
  );
}

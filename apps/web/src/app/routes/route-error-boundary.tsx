import { isRouteErrorResponse, useRouteError } from 'react-router';
import { buttonClass } from '../../components/ui/button';

/** Shown when a page throws while rendering or its code fails to load. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center px-4 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">Something went wrong</h1>
      <p className="mt-3 text-slate-600">The page could not be shown. Reload to try again.</p>
      <pre className="mt-4 max-w-full overflow-auto rounded bg-slate-100 p-3 text-left text-sm text-slate-700">
        {message}
      </pre>
      <button type="button" onClick={() => window.location.reload()} className={`${buttonClass()} mt-6 min-h-11`}>
        Reload
      </button>
    </main>
  );
}

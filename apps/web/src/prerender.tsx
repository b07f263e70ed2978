// Server-side render of the public pages at build time (vite build --ssr; see prerender.mjs), so they
// paint before their JavaScript runs. The browser then hydrates that markup (main.tsx).
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { DashboardShell } from './app/layouts/dashboard-shell';
import { AppProviders } from './app/providers';
import { routePatterns, routes } from './app/router';
import { PAGE_META } from './features/marketing/page-meta';

export { PAGE_META };

/** The route table's path patterns (written to dist/pages/routes.json: the server answers 404 outside them). */
export const ROUTE_PATTERNS = routePatterns();

/** Any path outside the route table: the public site's not-found page (dist/pages/404.html). */
export const NOT_FOUND_PATH = '/404';
export const NOT_FOUND_META = {
  title: 'Page not found',
  description: 'This page does not exist on the Atrium site.',
} as const;

export async function render(pathname: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${pathname}`));
  if (context instanceof Response) throw new Error(`${pathname} answered a redirect while prerendering`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <AppProviders>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
}

/** The signed-in area's static frame (dist/pages/dashboard.html): painted before the JavaScript has run. */
export function renderDashboardShell(): string {
  return renderToString(<DashboardShell />);
}

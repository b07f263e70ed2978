import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { PublicLayout } from './layouts/public-layout';
import { RouteErrorBoundary } from './routes/route-error-boundary';
import NotFoundPage from './routes/not-found';

/** A route whose page is loaded on demand, so every page is its own chunk. */
const page = (load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/**
 * The route table of docs/PRODUCT.md#web-routes. Public pages share the site header;
 * /login and /dashboard/* do not.
 */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorBoundary />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { index: true, ...page(() => import('../features/marketing/routes/home')) },
          { path: 'about', ...page(() => import('../features/marketing/routes/about')) },
          { path: 'features', ...page(() => import('../features/marketing/routes/features')) },
          { path: 'pricing', ...page(() => import('../features/marketing/routes/pricing')) },
          { path: 'contact', ...page(() => import('../features/marketing/routes/contact')) },
          { path: 'testimonials', ...page(() => import('../features/marketing/routes/testimonials')) },
          { path: '*', Component: NotFoundPage },
        ],
      },
      { path: 'login', ...page(() => import('./routes/login')) },
      // A public link's page: no site header, no sign-in (features/sharing/routes/public-link.tsx).
      { path: 's/:token', ...page(() => import('../features/sharing/routes/public-link')) },
      {
        path: 'dashboard',
        // The whole signed-in area is its own chunk: public pages never download it.
        lazy: async () => ({ Component: (await import('./layouts/dashboard-layout')).DashboardLayout }),
        children: [
          { index: true, ...page(() => import('./routes/dashboard-home')) },
          { path: 'profile', ...page(() => import('./routes/profile')) },
          { path: 'notifications', ...page(() => import('../features/notifications/routes/notifications')) },
          { path: 'shared', ...page(() => import('../features/sharing/routes/shared-with-me')) },
          { path: 'trash', ...page(() => import('../features/trash/routes/trash')) },
          { path: 'search', ...page(() => import('../features/search/routes/search-page')) },
          { path: 'spaces/personal/folders/:folderId?', ...page(() => import('./routes/space-folder')) },
          { path: 'spaces/:workspaceId/folders/:folderId?', ...page(() => import('./routes/space-folder')) },
          { path: 'spaces/:workspaceId/members', ...page(() => import('../features/spaces/routes/members')) },
          { path: 'spaces/personal/people', ...page(() => import('../features/people/routes/people')) },
          { path: 'spaces/:workspaceId/people', ...page(() => import('../features/people/routes/people')) },
          { path: 'files', ...page(() => import('../features/files/routes/files')) },
          { path: 'file-upload', ...page(() => import('../features/files/routes/file-upload')) },
          { path: 'file-list', ...page(() => import('../features/files/routes/file-list')) },
          { path: 'file-download/:fileId?', ...page(() => import('../features/files/routes/file-download')) },
          { path: 'file-delete/:fileId?', ...page(() => import('../features/files/routes/file-delete')) },
          { path: 'file-stats', ...page(() => import('../features/files/routes/file-stats')) },
          { path: 'file-preview', ...page(() => import('../features/files/routes/file-preview')) },
          { path: 'speech-to-text', ...page(() => import('../features/ai/routes/speech-to-text')) },
          { path: 'text-to-speech', ...page(() => import('../features/ai/routes/text-to-speech')) },
          { path: 'face-detection', ...page(() => import('../features/ai/routes/face-detection')) },
          { path: 'image-analysis', ...page(() => import('../features/ai/routes/image-analysis')) },
          {
            // Non-admins go to /dashboard (loaded on demand: public pages never ship it).
            lazy: async () => ({ Component: (await import('./require-admin')).RequireAdmin }),
            children: [
              { path: 'admin/push-message', ...page(() => import('../features/notifications/routes/push-message')) },
              { path: 'admin/users', ...page(() => import('../features/admin/routes/users')) },
              { path: 'admin/audit', ...page(() => import('../features/admin/routes/audit')) },
              { path: 'admin/api-keys', ...page(() => import('../features/admin/routes/api-keys')) },
              { path: 'admin/messages', ...page(() => import('../features/admin/routes/messages')) },
              { path: 'admin/system', ...page(() => import('../features/admin/routes/system')) },
            ],
          },
          { path: 'chatbot', ...page(() => import('../features/assistant/routes/chatbot')) },
          { path: '*', element: <NotFoundPage backTo="/dashboard" /> },
        ],
      },
    ],
  },
];

/**
 * Every path pattern of the route table, e.g. `/dashboard/file-download/:fileId?`, without the catch-all
 * (`*`) not-found routes. The build writes them to `dist/pages/routes.json`; the server answers other
 * paths with 404.
 */
export function routePatterns(table: RouteObject[] = routes, prefix = ''): string[] {
  return table.flatMap((route) => {
    const here = route.index ? prefix : route.path ? `${prefix}/${route.path}` : prefix;
    if (route.path?.endsWith('*')) return [];
    const own = route.index || (route.path && !route.children) ? [here || '/'] : [];
    return [...own, ...routePatterns(route.children ?? [], here)];
  });
}

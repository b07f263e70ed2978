import { PAGES, pagePatternBelow, type Page } from '@atrium/contracts/pages';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { PublicLayout } from './layouts/public-layout';
import { RouteErrorBoundary } from './routes/route-error-boundary';
import NotFoundPage from './routes/not-found';

/** A page's route pattern below the root, or below the dashboard (the page table: `@atrium/contracts/pages`). */
const atRoot = (page: Page) => pagePatternBelow(page, PAGES.home.path);
const inDashboard = (page: Page) => pagePatternBelow(page, PAGES.dashboard.path);

/** A route whose page is loaded on demand, so every page is its own chunk. */
const page = (load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/**
 * The route table of docs/PRODUCT.md#web-routes: every page of `PAGES`, each with its component. Public pages share
 * the site header;
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
          { path: atRoot(PAGES.about), ...page(() => import('../features/marketing/routes/about')) },
          { path: atRoot(PAGES.features), ...page(() => import('../features/marketing/routes/features')) },
          { path: atRoot(PAGES.pricing), ...page(() => import('../features/marketing/routes/pricing')) },
          { path: atRoot(PAGES.contact), ...page(() => import('../features/marketing/routes/contact')) },
          { path: atRoot(PAGES.testimonials), ...page(() => import('../features/marketing/routes/testimonials')) },
          { path: '*', Component: NotFoundPage },
        ],
      },
      { path: atRoot(PAGES.login), ...page(() => import('./routes/login')) },
      // A public link's page: no site header, no sign-in (features/sharing/routes/public-link.tsx).
      { path: atRoot(PAGES.publicLink), ...page(() => import('../features/sharing/routes/public-link')) },
      // Invitation and password reset pages: no site header, no sign-in (features/accounts).
      { path: atRoot(PAGES.invite), ...page(() => import('../features/accounts/routes/invite')) },
      { path: atRoot(PAGES.resetPassword), ...page(() => import('../features/accounts/routes/reset-password')) },
      { path: atRoot(PAGES.signup), ...page(() => import('../features/accounts/routes/signup')) },
      {
        path: atRoot(PAGES.dashboard),
        // The whole signed-in area is its own chunk: public pages never download it.
        lazy: async () => ({ Component: (await import('./layouts/dashboard-layout')).DashboardLayout }),
        children: [
          { index: true, ...page(() => import('./routes/dashboard-home')) },
          { path: inDashboard(PAGES.profile), ...page(() => import('./routes/profile')) },
          {
            path: inDashboard(PAGES.connectApp),
            ...page(() => import('../features/app-passwords/routes/connect-app')),
          },
          {
            path: inDashboard(PAGES.notifications),
            ...page(() => import('../features/notifications/routes/notifications')),
          },
          { path: inDashboard(PAGES.shared), ...page(() => import('../features/sharing/routes/shared-with-me')) },
          { path: inDashboard(PAGES.trash), ...page(() => import('../features/trash/routes/trash')) },
          { path: inDashboard(PAGES.starred), ...page(() => import('../features/activity/routes/starred')) },
          { path: inDashboard(PAGES.recent), ...page(() => import('../features/activity/routes/recent')) },
          { path: inDashboard(PAGES.activity), ...page(() => import('../features/activity/routes/activity')) },
          { path: inDashboard(PAGES.search), ...page(() => import('../features/search/routes/search-page')) },
          { path: inDashboard(PAGES.personalFolder), ...page(() => import('./routes/space-folder')) },
          { path: inDashboard(PAGES.workspaceFolder), ...page(() => import('./routes/space-folder')) },
          { path: inDashboard(PAGES.members), ...page(() => import('./routes/members')) },
          { path: inDashboard(PAGES.personalPeople), ...page(() => import('../features/people/routes/people')) },
          { path: inDashboard(PAGES.workspacePeople), ...page(() => import('../features/people/routes/people')) },
          { path: inDashboard(PAGES.files), ...page(() => import('../features/files/routes/files')) },
          { path: inDashboard(PAGES.fileUpload), ...page(() => import('../features/files/routes/file-upload')) },
          { path: inDashboard(PAGES.fileList), ...page(() => import('../features/files/routes/file-list')) },
          { path: inDashboard(PAGES.fileDownload), ...page(() => import('../features/files/routes/file-download')) },
          { path: inDashboard(PAGES.fileDelete), ...page(() => import('../features/files/routes/file-delete')) },
          { path: inDashboard(PAGES.fileStats), ...page(() => import('../features/files/routes/file-stats')) },
          { path: inDashboard(PAGES.filePreview), ...page(() => import('../features/files/routes/file-preview')) },
          { path: inDashboard(PAGES.speechToText), ...page(() => import('../features/ai/routes/speech-to-text')) },
          { path: inDashboard(PAGES.textToSpeech), ...page(() => import('../features/ai/routes/text-to-speech')) },
          { path: inDashboard(PAGES.faceDetection), ...page(() => import('../features/ai/routes/face-detection')) },
          { path: inDashboard(PAGES.imageAnalysis), ...page(() => import('../features/ai/routes/image-analysis')) },
          {
            // Non-admins go to /dashboard (loaded on demand: public pages never ship it).
            lazy: async () => ({ Component: (await import('./require-admin')).RequireAdmin }),
            children: [
              {
                path: inDashboard(PAGES.pushMessage),
                ...page(() => import('../features/notifications/routes/push-message')),
              },
              { path: inDashboard(PAGES.users), ...page(() => import('./routes/admin-users')) },
              { path: inDashboard(PAGES.audit), ...page(() => import('../features/admin/routes/audit')) },
              { path: inDashboard(PAGES.apiKeys), ...page(() => import('../features/admin/routes/api-keys')) },
              { path: inDashboard(PAGES.aiSettings), ...page(() => import('../features/admin/routes/ai-settings')) },
              { path: inDashboard(PAGES.messages), ...page(() => import('../features/admin/routes/messages')) },
              { path: inDashboard(PAGES.system), ...page(() => import('./routes/admin-system')) },
            ],
          },
          { path: inDashboard(PAGES.chatbot), ...page(() => import('../features/assistant/routes/chatbot')) },
          { path: '*', element: <NotFoundPage backTo={PAGES.dashboard.path} /> },
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

import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routePatterns, routes } from './router';
import { PAGES, pagePattern } from '@atrium/contracts/pages';

describe('route table', () => {
  it('lists every path pattern for the server (which answers 404 outside them), without catch-alls', () => {
    const patterns = routePatterns();
    const publicPages = ['/', '/about', '/features', '/pricing', '/contact', '/testimonials', '/login', '/s/:token'];
    expect(patterns).toEqual(
      expect.arrayContaining([
        ...publicPages,
        '/dashboard',
        '/dashboard/files',
        '/dashboard/file-download/:fileId?',
        '/dashboard/admin/push-message',
        '/dashboard/chatbot',
        '/dashboard/shared',
        '/dashboard/spaces/personal/folders/:folderId?',
        '/dashboard/spaces/:workspaceId/folders/:folderId?',
        '/dashboard/spaces/:workspaceId/members',
      ]),
    );
    expect(patterns.filter((pattern) => pattern.includes('*'))).toEqual([]);
    // The router registers exactly the pages of the one page table.
    expect([...patterns].sort()).toEqual(Object.values(PAGES).map(pagePattern).sort());
    expect(new Set(patterns).size).toBe(patterns.length);
  });

  it("the dashboard's not-found page leads back to the dashboard, the public one to the home page", () => {
    const dashboard = routes[0]?.children?.find((route) => route.path === 'dashboard');
    const publicLayout = routes[0]?.children?.find((route) => !route.path);
    const catchAll = (route: RouteObject | undefined) => route?.children?.find((child) => child.path === '*');
    for (const [route, name, href] of [
      [catchAll(dashboard), 'Back to the dashboard', '/dashboard'],
      [catchAll(publicLayout), 'Back to the home page', '/'],
    ] as const) {
      const router = createMemoryRouter([{ ...route, path: '*' }], { initialEntries: ['/somewhere/unknown'] });
      const { unmount } = render(<RouterProvider router={router} />);
      expect(screen.getByRole('heading', { name: 'Page not found' })).toBeTruthy();
      expect(screen.getByRole('link', { name }).getAttribute('href')).toBe(href);
      unmount();
    }
  });
});

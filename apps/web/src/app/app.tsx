import { useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './providers';
import { routes } from './router';

export const router = createBrowserRouter(routes);

/** Resolves once the first page's lazy route modules are loaded, so the first render is the whole page. */
export function routerReady(): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

export function App() {
  // Marks the page interactive (prerendered markup is static until this first commit); tests wait for it.
  useEffect(() => {
    document.documentElement.dataset.app = 'ready';
  }, []);
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}

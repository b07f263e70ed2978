import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import { ToastContainer } from 'react-toastify/unstyled';
import { isApiError } from '../lib/api-error';
import { limitToasts } from '../lib/toast';

/**
 * Toasts (docs/PRODUCT.md#toasts): top-right, 5000 ms, 320 px wide (width and placement in index.css); at most
 * three at a time (`limitToasts`), and a repeated text counts up on one toast (`showToast`).
 */
export const TOAST_DEFAULTS = { position: 'top-right', autoClose: 5000 } as const;

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Client errors (401, 403, 404…) will not change on retry.
        retry: (count, error) => count < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
      },
    },
  });
}

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  useEffect(() => limitToasts(), []);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <ToastContainer
        position={TOAST_DEFAULTS.position}
        autoClose={TOAST_DEFAULTS.autoClose}
        newestOnTop
        closeOnClick
        pauseOnFocusLoss={false}
      />
    </QueryClientProvider>
  );
}

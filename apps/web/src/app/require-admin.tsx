import { PAGES } from '@atrium/contracts/pages';
import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { Spinner } from '../components/ui/spinner';
import { useMe } from '../lib/me';

/**
 * Admin-only pages: anyone else is sent to /dashboard (docs/PRODUCT.md#web-routes). The
 * server refuses non-admins anyway; this only keeps them off a page they
 * cannot use. Wraps its children, or the nested routes when used as a layout.
 */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <Spinner label="Checking your permissions…" />;
  if (!me.data?.isAdmin) return <Navigate to={PAGES.dashboard.path} replace />;
  return children ?? <Outlet />;
}

/**
 * Who may call a route, declared in its options (`config: { access }`) in
 * addition to the handler's requireUser()/requireAdmin() call, so a test can
 * walk every route and check anonymous → 401 and wrong role → 403.
 */
export type RouteAccess = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

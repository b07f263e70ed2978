/**
 * Who may call a route, declared in its options (`config: { access }`) and
 * walked by the access-control matrix test:
 * - public: anyone; user: any signed-in user; admin: admins only;
 * - apikey: a client presenting an API key created by an admin
 *   (`Ocp-Apim-Subscription-Key` or `Authorization: Bearer`), never the session cookie.
 */
export type RouteAccess = 'public' | 'user' | 'admin' | 'apikey';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

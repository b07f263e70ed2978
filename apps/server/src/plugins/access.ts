/**
 * The route level's one gate: every route declares `config: { access }` (routes come from the endpoint table through
 * `plugins/route.ts`; admin routes add their capability's 403 message through `adminOnly`), and an `onRequest` hook
 * enforces it before the body is parsed, never repeated in handlers. `app.routeTable` records every route for the
 * access-control matrix test (`test/access-matrix.int.test.ts`).
 */
import type { Endpoint } from '@atrium/contracts';
import type { FastifyInstance } from 'fastify';
import { isAdmin } from '../auth/actor';
import { ADMIN_CAPABILITIES } from '../auth/policies/admin';
import { AppError } from '../errors';

/**
 * Who may call a route, declared in its options (`config: { access }`) and
 * walked by the access-control matrix test:
 * - public: anyone; user: any signed-in user; admin: admins only;
 * - apikey: a client presenting an API key created by an admin
 *   (`Ocp-Apim-Subscription-Key` or `Authorization: Bearer`), never the session cookie.
 *   The module that owns such a route checks the key itself.
 * - dav: the WebDAV routes (modules/dav): an app password by HTTP Basic, or on `/dav/` the session cookie; the DAV
 *   module checks them itself (a 401 there carries the Basic challenge).
 */
export type Access = 'public' | 'user' | 'admin' | 'apikey' | 'dav';

export interface RouteEntry {
  method: string;
  url: string;
  access: Access | undefined;
  /** The schemas the route was registered with (the endpoint-table test compares them with the declared ones). */
  schema?: { params?: unknown; querystring?: unknown; body?: unknown; response?: Record<number, unknown> } | undefined;
  /** The endpoint table entry it was registered from (`plugins/route.ts`); none for a plugin's own route. */
  endpoint?: Endpoint | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every /api and /public/api route; checked before the body is parsed. */
    access?: Access;
    /** The 403 message for a non-admin on an `admin` route: declare it with `adminOnly(capability)` (auth/policies/admin.ts). */
    forbiddenMessage?: string;
  }
  interface FastifyInstance {
    /** Every registered route with its access declaration (the access-control matrix test walks it). */
    routeTable: RouteEntry[];
  }
}

/** Records every route as it is registered. Call before any route is added. */
export function collectRoutes(app: FastifyInstance) {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    const config = route.config as { access?: Access; endpoint?: Endpoint } | undefined;
    const schema = route.schema as RouteEntry['schema'];
    for (const method of [route.method].flat()) {
      table.push({ method, url: route.url, access: config?.access, schema, endpoint: config?.endpoint });
    }
  });
}

/**
 * Enforces each route's `config.access` before its body is read, so an anonymous caller gets 401 and a non-admin
 * 403 whatever they send: the one gate of the route level (handlers do not check it again; they call
 * `requireUser()` to get the actor, and resource rules are the policies' in `auth/policies/`). Needs the session
 * plugin.
 */
export function enforceAccess(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    const { access, forbiddenMessage } = request.routeOptions.config;
    if (access !== 'user' && access !== 'admin') return;
    const actor = await request.requireUser();
    if (access === 'admin' && !isAdmin(actor)) {
      throw new AppError('FORBIDDEN', forbiddenMessage ?? ADMIN_CAPABILITIES.any);
    }
  });
}

/** API routes (HEAD aside) registered without an access declaration. */
export function undeclaredApiRoutes(table: RouteEntry[]): RouteEntry[] {
  return table.filter((r) => /^\/(api|public\/api)(\/|$)/.test(r.url) && r.method !== 'HEAD' && !r.access);
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ENDPOINTS } from '@atrium/contracts';
import { PAGES, pageHref } from '@atrium/contracts/pages';
import type { EventEmitter } from '../../events';
import { changeBy } from '../../lib/http/request-context';
import type { SiteOrigin } from '../../lib/site-origin';
import type { RouteRateLimit } from '../../plugins/rate-limit';
import { routesOf } from '../../plugins/route';
import type { LoginFlowService } from './login-flow.service';

const BASE = '/index.php/login/v2';
const TOO_MANY = 'Too many sign-in requests from this address. Please try again later.';

/** Starting flows, per client IP: a person connects a few clients, not hundreds. */
export const LOGIN_FLOW_START_LIMIT: RouteRateLimit = {
  name: 'nc-login-flow',
  max: 30,
  windowMs: 10 * 60_000,
  message: TOO_MANY,
};
/** Polls, per client IP: enough for clients polling every second through a whole 20-minute flow. */
export const LOGIN_FLOW_POLL_LIMIT: RouteRateLimit = {
  name: 'nc-login-poll',
  max: 1500,
  windowMs: 20 * 60_000,
  message: TOO_MANY,
};

/** The poll token from a form body (`token=…`, as the clients send it), a JSON body or the query. */
function pollTokenOf(request: FastifyRequest): string {
  const body = request.body;
  if (typeof body === 'string') return new URLSearchParams(body).get('token') ?? '';
  if (body && typeof body === 'object') {
    const token = (body as { token?: unknown }).token;
    if (typeof token === 'string') return token;
  }
  const query = (request.query as { token?: unknown } | undefined)?.token;
  return typeof query === 'string' ? query : '';
}

/**
 * Login Flow v2 (docs/PRODUCT.md#nextcloud-clients), as Nextcloud's ClientFlowLoginV2Controller answers it:
 * `POST /index.php/login/v2` → `{ poll: { token, endpoint }, login }`; `GET /index.php/login/v2/flow/{token}` sends
 * the browser to the web page that asks the signed-in person (after sign-in, second factor included) to grant
 * access; `POST /index.php/login/v2/poll` (`token=…`) → 404 `[]` until granted, then once
 * `{ server, loginName, appPassword }`. The page's own calls are in the endpoint table (`/api/login-flow/…`).
 */
export async function registerLoginFlowRoutes(
  app: FastifyInstance,
  { flows, events, site }: { flows: LoginFlowService; events: EventEmitter; site: SiteOrigin },
) {
  const hidden = { hide: true };
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, body),
    );
    scope.route({
      method: 'POST',
      url: BASE,
      config: { access: 'public', rateLimit: LOGIN_FLOW_START_LIMIT },
      schema: hidden,
      handler: async (request, reply) => {
        const origin = site.of(request);
        const { pollToken, loginToken } = await flows.start(request.headers['user-agent']);
        return reply.header('cache-control', 'no-store').send({
          poll: { token: pollToken, endpoint: `${origin}${BASE}/poll` },
          login: `${origin}${BASE}/flow/${loginToken}`,
        });
      },
    });
    scope.route({
      method: 'POST',
      url: `${BASE}/poll`,
      config: { access: 'public', rateLimit: LOGIN_FLOW_POLL_LIMIT },
      schema: hidden,
      handler: async (request, reply) => {
        const taken = await flows.poll(pollTokenOf(request));
        void reply.header('cache-control', 'no-store');
        if (!taken) return reply.status(404).send([]);
        await events.emit(
          'app_password.created',
          changeBy(request, taken.actor, {
            target: `app_password:${taken.id}`,
            details: { name: taken.clientName, via: 'login-flow' },
          }),
        );
        return reply.send({
          server: site.of(request),
          loginName: taken.actor.ownerKey,
          appPassword: taken.appPassword,
        });
      },
    });
  });
  app.route({
    method: 'GET',
    url: `${BASE}/flow/:token`,
    config: { access: 'public' },
    schema: hidden,
    handler: async (request, reply) => {
      const token = String((request.params as { token?: unknown }).token ?? '').slice(0, 200);
      const page = pageHref(PAGES.connectApp, { token });
      return reply.header('cache-control', 'no-store').redirect(page, 302);
    },
  });

  const E = ENDPOINTS.loginFlow;
  const serve = routesOf(app, { config: { access: 'user' }, tags: ['auth'] });
  serve(E.show, {
    summary: 'The client a Nextcloud Login Flow v2 request is for (the page that grants it access)',
    errors: [404],
    handler: async (request) => {
      await request.requireUser();
      return flows.show(request.params.token);
    },
  });
  serve(E.grant, {
    summary: 'Grant a Nextcloud client access: its next poll receives a new app password',
    errors: [404],
    handler: async (request) => flows.grant(await request.requireUser(), request.params.token),
  });
}

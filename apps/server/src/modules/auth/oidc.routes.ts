import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ENDPOINTS, type OidcLoginError } from '@atrium/contracts';
import type { SessionControls } from '../../plugins/session';
import type { SiteOrigin } from '../../lib/site-origin';
import type { EventEmitter } from '../../events';
import { changeBy, requestContext } from '../../lib/http/request-context';
import { AccountDisabledError, type AuthService, type OidcProfile } from './auth.service';
import type { SessionUser } from './sessions.service';
import { OidcFlow, OidcUnavailableError, safeReturnTo, type OidcService } from './oidc.service';
import { createSealer } from './sealed-cookie';
import { routesOf } from '../../plugins/route';

export const OIDC_FLOW_COOKIE = 'atrium_oidc';
const { oidcStart: start, oidcCallback: callback } = ENDPOINTS.auth;
const FLOW_TTL_MS = 10 * 60 * 1000;

export interface OidcRoutesDeps {
  oidc: OidcService | undefined;
  auth: AuthService;
  sessions: SessionControls;
  site: SiteOrigin;
  sessionSecret: string;
  secureCookies: boolean;
  events: EventEmitter;
  /** Runs after each identity-provider sign-in (a pending invitation for the verified email joins at once). */
  afterOidcSignIn: readonly OidcSignInHook[];
}

export type OidcSignInHook = (user: SessionUser, profile: OidcProfile, request: FastifyRequest) => Promise<void>;

/**
 * Sign-in with the identity provider, as a backend for frontend: the browser
 * navigates to /start, comes back to /callback, and ends on the page it asked
 * for with a session cookie. Tokens never leave the server. Failures land on
 * /login?error=oidc_unavailable|oidc_failed, which the login page explains.
 */
export function registerOidcRoutes(app: FastifyInstance, deps: OidcRoutesDeps) {
  const sealer = createSealer(deps.sessionSecret, 'oidc-flow');
  const cookieOptions = {
    path: '/api/auth/oidc',
    httpOnly: true,
    // Lax: the cookie must come back on the provider's top-level redirect to the callback.
    sameSite: 'lax' as const,
    secure: deps.secureCookies,
  };
  const toLogin = (reply: FastifyReply, error: OidcLoginError) => reply.redirect(`/login?error=${error}`, 302);

  const serve = routesOf(app, { config: { access: 'public' }, tags: ['auth'] });

  serve(start, {
    summary: 'Start signing in with the identity provider (a browser navigation, answered with a redirect)',
    handler: async (request, reply) => {
      if (!deps.oidc) return toLogin(reply, 'oidc_unavailable');
      const site = deps.site.of(request);
      try {
        const { url, flow } = await deps.oidc.start(safeReturnTo(request.query.returnTo, site), site);
        void reply.setCookie(OIDC_FLOW_COOKIE, sealer.seal(flow, FLOW_TTL_MS), {
          ...cookieOptions,
          maxAge: FLOW_TTL_MS / 1000,
        });
        return reply.header('cache-control', 'no-store').redirect(url, 302);
      } catch (error) {
        request.log.warn({ err: error }, 'could not start the identity provider sign-in');
        return toLogin(reply, 'oidc_unavailable');
      }
    },
  });

  serve(callback, {
    summary: 'Where the identity provider sends the browser back (redirects onwards)',
    handler: async (request, reply) => {
      const flow = OidcFlow.safeParse(sealer.unseal(request.cookies[OIDC_FLOW_COOKIE]));
      void reply.clearCookie(OIDC_FLOW_COOKIE, cookieOptions).header('cache-control', 'no-store');
      if (!deps.oidc || !flow.success) {
        request.log.info('identity provider callback without a valid sign-in in progress');
        return toLogin(reply, 'oidc_failed');
      }
      let subject: string | undefined;
      try {
        const site = deps.site.of(request);
        const profile = await deps.oidc.finish(new URL(request.url, site), flow.data);
        subject = profile.subject;
        const { user, roleChange } = await deps.auth.loginOidc(profile);
        await deps.sessions.signIn(request, reply, user.id);
        await deps.events.emit(
          'auth.sign_in',
          changeBy(request, user, { target: `user:${user.ownerKey}`, details: { method: 'oidc', role: user.role } }),
        );
        for (const hook of deps.afterOidcSignIn) await hook(user, profile, request);
        if (roleChange)
          await deps.events.emit('user.role_changed', {
            actor: null,
            target: `user:${user.ownerKey}`,
            details: { ...roleChange, source: 'oidc_claim' },
            ...requestContext(request),
          });
        return reply.redirect(safeReturnTo(flow.data.returnTo, site), 302);
      } catch (error) {
        request.log.warn({ err: error }, 'identity provider sign-in failed');
        const reason =
          error instanceof AccountDisabledError
            ? 'account_disabled'
            : error instanceof OidcUnavailableError
              ? 'oidc_unavailable'
              : 'oidc_failed';
        await deps.events.emit('auth.sign_in_failed', {
          actor: null,
          target: subject === undefined ? null : `oidc:${subject}`,
          details: { method: 'oidc', reason },
          ...requestContext(request),
        });
        return toLogin(reply, reason);
      }
    },
  });
}

/**
 * Server-side sessions: an opaque 256-bit token in the `atrium_session` cookie (HttpOnly, SameSite=Lax, Secure on
 * https); the `sessions` table stores its SHA-256, the user, last-seen and absolute expiry. Routes call `await
 * request.requireUser()` for the actor. A route with `config.session: 'cached'` (only the notification stream) verifies
 * the session from memory (at most 10 s old, forgotten the moment a session or user ends, on every instance). See
 * docs/SECURITY.md.
 */
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_END_MESSAGES } from '@atrium/contracts/texts';
import { AppError } from '../errors';
import type { SessionStore, UserActor } from '../auth/actor';

export const SESSION_COOKIE = 'atrium_session';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null. Resolved once per request, on first use. */
    currentUser(): Promise<UserActor | null>;
    /** The signed-in user; throws 401 UNAUTHENTICATED without a valid session. */
    requireUser(): Promise<UserActor>;
  }
  interface FastifyContextConfig {
    /**
     * `cached`: the session may be verified from memory (at most 10 s old, forgotten the moment it ends: sign-out,
     * disable, revoke, expiry, or an end announced by another instance). Only for routes that need no more than
     * the user's id and that open many connections: the notification stream.
     */
    session?: 'cached';
  }
}

const resolved = new WeakMap<FastifyRequest, Promise<UserActor | null>>();

export interface SessionCookieOptions {
  secure: boolean;
  maxAgeMs: number;
}

export async function registerSessions(
  app: FastifyInstance,
  sessions: SessionStore,
  cookieOptions: SessionCookieOptions,
) {
  await app.register(cookie);

  app.decorateRequest('currentUser', function currentUser(this: FastifyRequest) {
    let user = resolved.get(this);
    if (!user) {
      const token = this.cookies[SESSION_COOKIE];
      user = !token
        ? Promise.resolve(null)
        : this.routeOptions.config.session === 'cached'
          ? sessions.resolveCached(token)
          : sessions.resolve(token);
      resolved.set(this, user);
    }
    return user;
  });
  app.decorateRequest('requireUser', async function requireUser(this: FastifyRequest) {
    const user = await this.currentUser();
    if (!user) {
      // The reason lets the page say why it was signed out (docs/PRODUCT.md#session-end-reasons).
      const reason = await sessions.endReason(this.cookies[SESSION_COOKIE]);
      throw new AppError('UNAUTHENTICATED', SESSION_END_MESSAGES[reason], { reason });
    }
    return user;
  });

  return {
    /** Starts a session for the user and sets its cookie. */
    async signIn(request: FastifyRequest, reply: FastifyReply, userId: string) {
      const old = request.cookies[SESSION_COOKIE];
      if (old) await sessions.destroy(old);
      const token = await sessions.create(userId, { userAgent: request.headers['user-agent'], ip: request.ip });
      void reply.setCookie(SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: cookieOptions.secure,
        maxAge: Math.floor(cookieOptions.maxAgeMs / 1000),
      });
      resolved.delete(request);
    },
    /** Ends the session (if any) and clears its cookie. */
    async signOut(request: FastifyRequest, reply: FastifyReply) {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await sessions.destroy(token);
      void reply.clearCookie(SESSION_COOKIE, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: cookieOptions.secure,
      });
      resolved.delete(request);
    },
  };
}

export type SessionControls = Awaited<ReturnType<typeof registerSessions>>;

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorResponse, LoginRequest, LogoutResponse, MeResponse } from '@atrium/contracts';
import type { SessionControls } from '../../plugins/session';
import type { AuthService } from './auth.service';
import { isAdmin, type SessionUser } from './sessions.service';

export const presentMe = (user: SessionUser): MeResponse => ({
  id: user.id,
  ownerKey: user.ownerKey,
  name: user.name,
  nickname: user.nickname,
  email: user.email,
  picture: user.picture,
  role: user.role,
  isAdmin: isAdmin(user),
});

export function registerAuthRoutes(app: FastifyInstance, deps: { auth: AuthService; sessions: SessionControls }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with the built-in admin credentials',
        body: LoginRequest,
        response: { 200: MeResponse, 401: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = await deps.auth.loginAdmin(request.body.username, request.body.password);
      await deps.sessions.signIn(request, reply, user.id);
      return presentMe(user);
    },
  );

  typed.post(
    '/api/auth/logout',
    { schema: { tags: ['auth'], summary: 'End the session', response: { 200: LogoutResponse } } },
    async (request, reply) => {
      await deps.sessions.signOut(request, reply);
      return { ok: true as const, redirectTo: '/' };
    },
  );

  typed.get(
    '/api/me',
    { schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: MeResponse, 401: ErrorResponse } } },
    async (request) => presentMe(await request.requireUser()),
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminUser,
  AdminUserList,
  AdminUserParams,
  AdminUserPatch,
  AdminUsersQuery,
  ErrorResponse,
  NEXT_CURSOR_HEADER,
  SessionsRevoked,
} from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import { SESSION_COOKIE } from '../../plugins/session';
import { auditContext } from '../audit/audit-recorder';
import { sessionIdOf } from '../auth/sessions.service';
import type { AdminUsersService } from './admin-users.service';

/** /api/admin/users: the users screen (admins only). */
export function registerAdminRoutes(app: FastifyInstance, { users }: { users: AdminUsersService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

  typed.get(
    '/api/admin/users',
    {
      config: adminOnly('users'),
      schema: {
        tags,
        summary: 'Everyone who has signed in, by owner key (next page: the `X-Next-Cursor` header)',
        querystring: AdminUsersQuery,
        response: { 200: AdminUserList, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request, reply) => {
      const page = await users.list(await request.requireUser(), request.query);
      if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
      return page.users;
    },
  );

  typed.patch(
    '/api/admin/users/:userId',
    {
      config: adminOnly('users'),
      schema: {
        tags,
        summary: 'Change a user’s role, status (disable / enable) or quota',
        description:
          'Disabling ends the user’s sessions and live streams at once and refuses their sign-in. The built-in ' +
          'admin and the calling admin cannot be demoted or disabled (409).',
        params: AdminUserParams,
        body: AdminUserPatch,
        response: {
          200: AdminUser,
          400: ErrorResponse,
          401: ErrorResponse,
          403: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
        },
      },
    },
    async (request) =>
      users.update(await request.requireUser(), request.params.userId, request.body, auditContext(request)),
  );

  typed.delete(
    '/api/admin/users/:userId/sessions',
    {
      config: adminOnly('users'),
      schema: {
        tags,
        summary: 'Sign a user out everywhere (for yourself: everywhere but this session)',
        params: AdminUserParams,
        response: { 200: SessionsRevoked, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => {
      const token = request.cookies[SESSION_COOKIE];
      const revoked = await users.revokeSessions(
        await request.requireUser(),
        request.params.userId,
        token ? sessionIdOf(token) : undefined,
        auditContext(request),
      );
      return { revoked };
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ENDPOINTS, ErrorResponse, NEXT_CURSOR_HEADER } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import { SESSION_COOKIE } from '../../plugins/session';
import { requestContext } from '../../lib/http/request-context';
import { sessionIdOf } from '../auth/sessions.service';
import type { AdminUsersService } from './admin-users.service';

/** /api/admin/users: the users screen (admins only). */
export function registerAdminRoutes(app: FastifyInstance, { users }: { users: AdminUsersService }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];
  const { users: list, updateUser, revokeSessions, transferFiles } = ENDPOINTS.admin;

  typed.route({
    method: list.method,
    url: list.path,
    config: adminOnly('users'),
    schema: {
      tags,
      summary: 'Everyone who has signed in, by owner key (next page: the `X-Next-Cursor` header)',
      querystring: list.query,
      response: { 200: list.response, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
    },
    handler: async (request, reply) => {
      const page = await users.list(await request.requireUser(), request.query);
      if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
      return page.users;
    },
  });

  typed.route({
    method: updateUser.method,
    url: updateUser.path,
    config: adminOnly('users'),
    schema: {
      tags,
      summary: 'Change a user’s role, status (disable / enable) or quota',
      description:
        'Disabling ends the user’s sessions and live streams at once and refuses their sign-in. The built-in ' +
        'admin and the calling admin cannot be demoted or disabled (409).',
      params: updateUser.params,
      body: updateUser.body,
      response: {
        200: updateUser.response,
        400: ErrorResponse,
        401: ErrorResponse,
        403: ErrorResponse,
        404: ErrorResponse,
        409: ErrorResponse,
      },
    },
    handler: async (request) =>
      users.update(await request.requireUser(), request.params.userId, request.body, requestContext(request)),
  });

  typed.route({
    method: revokeSessions.method,
    url: revokeSessions.path,
    config: adminOnly('users'),
    schema: {
      tags,
      summary: 'Sign a user out everywhere (for yourself: everywhere but this session)',
      params: revokeSessions.params,
      response: { 200: revokeSessions.response, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
    },
    handler: async (request) => {
      const token = request.cookies[SESSION_COOKIE];
      const revoked = await users.revokeSessions(
        await request.requireUser(),
        request.params.userId,
        token ? sessionIdOf(token) : undefined,
        requestContext(request),
      );
      return { revoked };
    },
  });

  typed.route({
    method: transferFiles.method,
    url: transferFiles.path,
    config: adminOnly('users'),
    schema: {
      tags,
      summary: 'Transfer files: move every personal file and folder of a disabled user to another user',
      description:
        'Everything in the personal space of `userId` (trashed items and versions included) moves, in one ' +
        'transaction, into a new folder "From <their name>" of the personal space of `toUserId`, and counts ' +
        'against their quota (not checked). Audited as `user.files_transferred`. The account must be disabled ' +
        '(409); the recipient enabled (409) and someone else (400).',
      params: transferFiles.params,
      body: transferFiles.body,
      response: {
        200: transferFiles.response,
        400: ErrorResponse,
        401: ErrorResponse,
        403: ErrorResponse,
        404: ErrorResponse,
        409: ErrorResponse,
      },
    },
    handler: async (request) =>
      users.transferFiles(await request.requireUser(), request.params.userId, request.body, requestContext(request)),
  });
}

import type { FastifyInstance } from 'fastify';
import { ENDPOINTS, NEXT_CURSOR_HEADER } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import { SESSION_COOKIE } from '../../plugins/session';
import { requestContext } from '../../lib/http/request-context';
import { sessionIdOf } from '../auth';
import type { AdminUsersService } from './admin-users.service';
import { routesOf } from '../../plugins/route';

/** /api/admin/users: the users screen (admins only). */
export function registerAdminRoutes(app: FastifyInstance, { users }: { users: AdminUsersService }) {
  const tags = ['admin'];
  const { users: list, updateUser, revokeSessions, transferFiles } = ENDPOINTS.admin;

  const serve = routesOf(app, { config: adminOnly('users'), tags });

  serve(list, {
    summary: 'Everyone who has signed in, by owner key (next page: the `X-Next-Cursor` header)',
    errors: [400],
    handler: async (request, reply) => {
      const page = await users.list(await request.requireUser(), request.query);
      if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
      return page.users;
    },
  });

  serve(updateUser, {
    summary: 'Change a user’s role, status (disable / enable) or quota',
    description:
      'Disabling ends the user’s sessions and live streams at once and refuses their sign-in. The built-in ' +
      'admin and the calling admin cannot be demoted or disabled (409).',
    errors: [400, 404, 409],
    handler: async (request) =>
      users.update(await request.requireUser(), request.params.userId, request.body, requestContext(request)),
  });

  serve(revokeSessions, {
    summary: 'Sign a user out everywhere (for yourself: everywhere but this session)',
    errors: [404],
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

  serve(transferFiles, {
    summary: 'Transfer files: move every personal file and folder of a disabled user to another user',
    description:
      'Everything in the personal space of `userId` (trashed items and versions included) moves, in one ' +
      'transaction, into a new folder "From <their name>" of the personal space of `toUserId`, and counts ' +
      'against their quota (not checked). Audited as `user.files_transferred`. The account must be disabled ' +
      '(409); the recipient enabled (409) and someone else (400).',
    errors: [400, 404, 409],
    handler: async (request) =>
      users.transferFiles(await request.requireUser(), request.params.userId, request.body, requestContext(request)),
  });
}

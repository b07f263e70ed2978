import type { FastifyInstance } from 'fastify';
import { ENDPOINTS } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import type { EventEmitter } from '../../events';
import { changeBy } from '../../lib/http/request-context';
import { routesOf } from '../../plugins/route';
import type { AppPasswordsService } from './app-passwords.service';

/** `/api/me/app-passwords` (each person's own) and `/api/admin/app-passwords` (admins: everyone's). */
export function registerAppPasswordsRoutes(
  app: FastifyInstance,
  { passwords, events }: { passwords: AppPasswordsService; events: EventEmitter },
) {
  const E = ENDPOINTS.appPasswords;
  const serve = routesOf(app, { config: { access: 'user' }, tags: ['auth'] });
  serve(E.create, {
    summary: 'Create an app password for a WebDAV or sync client (the password is shown only in this answer)',
    errors: [400],
    handler: async (request, reply) => {
      const user = await request.requireUser();
      const created = await passwords.create(user, request.body.name);
      await events.emit(
        'app_password.created',
        changeBy(request, user, { target: `app_password:${created.id}`, details: { name: created.name } }),
      );
      return reply.status(E.create.status).header('cache-control', 'no-store').send(created);
    },
  });
  serve(E.list, {
    summary: "The signed-in person's app passwords with their last use (never the passwords)",
    handler: async (request) => passwords.list(await request.requireUser()),
  });
  serve(E.revoke, {
    summary: 'Revoke one of your app passwords',
    errors: [404],
    handler: async (request) => {
      const user = await request.requireUser();
      const revoked = await passwords.revoke(user, request.params.id);
      await events.emit('app_password.revoked', changeBy(request, user, { target: `app_password:${revoked.id}` }));
      return revoked;
    },
  });
  serve(E.adminList, {
    config: adminOnly('users'),
    summary: "Every person's app passwords (admins; never the passwords)",
    handler: async () => passwords.listAll(),
  });
  serve(E.adminRevoke, {
    config: adminOnly('users'),
    summary: "Revoke anyone's app password (admins)",
    errors: [404],
    handler: async (request) => {
      const admin = await request.requireUser();
      const revoked = await passwords.revokeAny(admin, request.params.id);
      await events.emit(
        'app_password.revoked',
        changeBy(request, admin, { target: `app_password:${revoked.id}`, details: { ownerKey: revoked.ownerKey } }),
      );
      return revoked;
    },
  });
}

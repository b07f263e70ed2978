import type { FastifyInstance } from 'fastify';
import { ENDPOINTS } from '@atrium/contracts';
import { adminOnly } from '../../auth/policies/admin';
import type { EventEmitter } from '../../events';
import { changeBy } from '../../lib/http/request-context';
import { routesOf } from '../../plugins/route';
import type { AppPasswordsService } from './app-passwords.service';

const E = ENDPOINTS.appPasswords;

/** `/api/me/app-passwords` (the signed-in user's own) and `/api/admin/app-passwords` (everyone's, admins only). */
export function registerAppPasswordsRoutes(
  app: FastifyInstance,
  { appPasswords, events }: { appPasswords: AppPasswordsService; events: EventEmitter },
) {
  const serve = routesOf(app, { config: { access: 'user' }, tags: ['auth'] });

  serve(E.create, {
    summary: 'Create an app password for a WebDAV client (the password is shown only in this answer)',
    errors: [400],
    handler: async (request, reply) => {
      const user = await request.requireUser();
      const created = await appPasswords.create(user, request.body.name);
      await events.emit(
        'app_password.created',
        changeBy(request, user, { target: `app_password:${created.id}`, details: { name: created.name } }),
      );
      return reply.status(E.create.status).header('cache-control', 'no-store').send(created);
    },
  });

  serve(E.list, {
    summary: "The signed-in user's app passwords (never the passwords themselves)",
    handler: async (request) => appPasswords.list(await request.requireUser()),
  });

  serve(E.revoke, {
    summary: 'Revoke one of your app passwords: programs using it stop working at once',
    errors: [404],
    handler: async (request) => {
      const user = await request.requireUser();
      const revoked = await appPasswords.revoke(user, request.params.id);
      await events.emit(
        'app_password.revoked',
        changeBy(request, user, {
          target: `app_password:${revoked.id}`,
          details: { name: revoked.name, owner: revoked.ownerKey },
        }),
      );
      const { ownerKey: _owner, ...record } = revoked;
      return record;
    },
  });

  serve(E.adminList, {
    config: adminOnly('users'),
    summary: "Every user's app passwords (never the passwords themselves)",
    handler: async () => appPasswords.listAll(),
  });

  serve(E.adminRevoke, {
    config: adminOnly('users'),
    summary: "Revoke anyone's app password",
    errors: [404],
    handler: async (request) => {
      const admin = await request.requireUser();
      const revoked = await appPasswords.revoke(admin, request.params.id);
      await events.emit(
        'app_password.revoked',
        changeBy(request, admin, {
          target: `app_password:${revoked.id}`,
          details: { name: revoked.name, owner: revoked.ownerKey },
        }),
      );
      return revoked;
    },
  });
}
